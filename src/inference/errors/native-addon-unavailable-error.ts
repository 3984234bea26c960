import { SelfplayError } from "../../core/errors/index.js";

/**
 * The native decoder (selfplay's C++ generation loop, native/) cannot be used:
 * the addon was not built, failed to load, or was built against another
 * llama.cpp release than the one node-llama-cpp loaded. `reason` says which.
 */
export class NativeAddonUnavailableError extends SelfplayError {
  override readonly name = "NativeAddonUnavailableError";
  constructor(readonly reason: string) {
    super(
      `the native decoder is unavailable: ${reason}. Build it with \`node scripts/build-native.mjs\` (needs a C++ compiler and git), ` +
        'or choose decoder: "node-llama-cpp"',
    );
  }
}
