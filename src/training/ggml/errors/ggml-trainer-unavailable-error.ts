import { SelfplayError } from "../../../core/errors/index.js";

/** The ggml trainer needs the native addon, which is not built or does not fit node-llama-cpp's llama.cpp. */
export class GgmlTrainerUnavailableError extends SelfplayError {
  override readonly name = "GgmlTrainerUnavailableError";
  constructor(readonly reason: string) {
    super(`the ggml trainer is unavailable: ${reason}. Build the addon with \`node scripts/build-native.mjs\` (needs a C++ compiler), or use --trainer tfjs`);
  }
}
