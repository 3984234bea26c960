import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { packageModelsFolder } from "./bundled-models.js";
import { createRandomModel, type CreateRandomModelOptions } from "./create-random-model.js";

/** The model `selfplay` plays with when given no `--model`: the measurement model of our benchmarks. */
export const DEFAULT_MODEL: Omit<CreateRandomModelOptions, "path"> = { preset: "medium", architecture: "llama", seed: 0 };
export const DEFAULT_MODEL_FILE_NAME = "selfplay-medium-llama-seed0.gguf";

/** Environment variable naming the folder for the default model (tests and read-only installs set it). */
export const MODEL_DIRECTORY_VARIABLE = "SELFPLAY_MODEL_DIR";

export interface DefaultModelOptions {
  /** Environment to read `SELFPLAY_MODEL_DIR` from. Default `process.env`. */
  environment?: Record<string, string | undefined>;
}

/**
 * The default model's path, created on first use (the same bytes every time:
 * a fixed seed). It lives in `$SELFPLAY_MODEL_DIR` when set, else the
 * package's `models/` folder, else — when that is not writable, as in a
 * global install — `~/.cache/selfplay/models`.
 */
export async function ensureDefaultModel(options: DefaultModelOptions = {}): Promise<string> {
  const environment = options.environment ?? process.env;
  const configured = environment[MODEL_DIRECTORY_VARIABLE];
  const folders = configured ? [resolve(configured)] : [packageModelsFolder(), join(homedir(), ".cache", "selfplay", "models")];
  let lastError: unknown;
  for (const folder of folders) {
    const path = join(folder, DEFAULT_MODEL_FILE_NAME);
    if (existsSync(path)) return path;
    try {
      await mkdir(folder, { recursive: true });
      return (await createRandomModel({ ...DEFAULT_MODEL, path })).path;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
