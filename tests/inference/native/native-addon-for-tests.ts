import { loadNativeAddon } from "../../../src/inference/native/load-native-addon.js";

/**
 * The addon for engine tests. They run wherever it builds (it must on the
 * development machine and in CI); where it did not, they skip and say why.
 */
export const nativeAddon = await loadNativeAddon("cpu");

/** Suffix for a describe title: empty when the addon loaded, else the reason the tests skip. */
export const skipNote = nativeAddon.binding === undefined ? ` (skipped: ${nativeAddon.reason})` : "";

if (nativeAddon.binding === undefined) {
  // CI has a compiler: there a missing addon is a failure, not a reason to skip.
  if (process.env.SELFPLAY_REQUIRE_NATIVE === "1") throw new Error(`SELFPLAY_REQUIRE_NATIVE=1 but the native addon did not load: ${nativeAddon.reason}`);
  console.warn(`native decoder tests skipped: ${nativeAddon.reason}`);
}
