import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL_FILE_NAME, ensureDefaultModel } from "../../../src/inference/model-files/default-model.js";
import { validateModelFile } from "../../../src/inference/model-files/validate-model-file.js";

describe("ensureDefaultModel", () => {
  it("creates the medium llama model on first use and reuses it after", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-default-model-"));
    const environment = { SELFPLAY_MODEL_DIR: folder };
    const path = await ensureDefaultModel({ environment });
    expect(path).toBe(join(folder, DEFAULT_MODEL_FILE_NAME));
    const validated = await validateModelFile(path);
    expect(validated.hyperparameters).toMatchObject({ architecture: "llama", embeddingLength: 256, blockCount: 4 });
    const written = await stat(path);
    expect(await ensureDefaultModel({ environment })).toBe(path);
    expect((await stat(path)).mtimeMs).toBe(written.mtimeMs);
  });

  it("makes the same bytes every time (a fixed seed)", async () => {
    const [first, second] = await Promise.all(
      [1, 2].map(async () => ensureDefaultModel({ environment: { SELFPLAY_MODEL_DIR: await mkdtemp(join(tmpdir(), "selfplay-default-model-")) } })),
    );
    expect((await readFile(first!)).equals(await readFile(second!))).toBe(true);
  });

  it("reports why when the configured folder cannot be written", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "selfplay-default-model-")), "a-file");
    await writeFile(file, "");
    await expect(ensureDefaultModel({ environment: { SELFPLAY_MODEL_DIR: join(file, "models") } })).rejects.toThrowError(/ENOTDIR|EEXIST/);
  });
});
