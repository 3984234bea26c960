import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { checkLogprobs } from "../../../trainers/check-logprobs.js";

let folder: string;
let modelPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-check-logprobs-ggml-"));
  // The medium preset at its default initialisation scale: the agreement target.
  modelPath = (await createRandomModel({ path: join(folder, "medium.gguf"), preset: "medium", architecture: "qwen2", seed: 11 })).path;
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("checkLogprobs with the ggml trainer", () => {
  it("agrees with the engine within 1e-5 (max) over parallel sequences at both temperatures", async () => {
    const result = await checkLogprobs({ modelPath, tokens: 400, sequences: 4, seed: 3, trainer: "ggml", contextSize: 256 });
    expect(result).toMatchObject({ trainer: "ggml", backend: "ggml cpu", loraPath: null });
    expect(result.tokens).toBeGreaterThanOrEqual(400);
    expect(result.maxPosition).toBe(255);
    expect(result.maxAbsDiff).toBeLessThanOrEqual(1e-5);
    expect(result.p99AbsDiff).toBeLessThanOrEqual(result.maxAbsDiff);
    expect(result.byTemperature.every((entry) => entry.maxAbsDiff <= 1e-5)).toBe(true);
  });

  it("refuses a LoRA adapter, which the ggml trainer does not apply yet", async () => {
    await expect(checkLogprobs({ modelPath, loraPath: join(folder, "none.gguf"), trainer: "ggml" })).rejects.toThrow(/trainer tfjs/);
  });
});
