import { loadNativeAddon } from "../../../src/inference/native/load-native-addon.js";

/**
 * The addon for engine tests. They run wherever it builds (it must on the
 * development machine and in CI); where it did not, they skip and say why.
 */
export const nativeAddon = await loadNativeAddon(false);

/** Suffix for a describe title: empty when the addon loaded, else the reason the tests skip. */
export const skipNote = nativeAddon.binding === undefined ? ` (skipped: ${nativeAddon.reason})` : "";

if (nativeAddon.binding === undefined) console.warn(`native decoder tests skipped: ${nativeAddon.reason}`);
