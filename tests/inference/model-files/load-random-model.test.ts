import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { validateModelFile } from "../../../src/inference/model-files/validate-model-file.js";

// Engine tier: project-made models through node-llama-cpp's prebuilt CPU binary.

let directory: string;
let llama: Llama;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-load-model-"));
  llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
});
afterAll(async () => {
  await llama?.dispose();
  await rm(directory, { recursive: true, force: true });
});

const TEXT = "Hello, wörld 12+3";
const BYTE_IDS = [...new TextEncoder().encode(TEXT)].map((byte) => byte + 3);

describe.each(["llama", "qwen2"] as const)("a tiny %s model made by createRandomModel", (architecture) => {
  it("passes validation, loads, and tokenizes text as its bytes + 3, and back", async () => {
    const { path } = await createRandomModel({ path: join(directory, `${architecture}.gguf`), preset: "tiny", architecture, seed: 5 });
    await validateModelFile(path);
    const model = await llama.loadModel({ modelPath: path });
    try {
      expect(model.fileInfo.metadata.general.architecture).toBe(architecture);
      const ids = model.tokenize(TEXT);
      expect(Array.from(ids)).toEqual(BYTE_IDS);
      expect(model.detokenize(ids)).toBe(TEXT);
      expect([model.tokens.bos, model.tokens.eos]).toEqual([1, 2]);

      // One forward pass per token: the tensor shapes are consistent with the compute graph.
      const context = await model.createContext({ contextSize: 32, threads: 1 });
      try {
        const sequence = context.getSequence();
        const generated: number[] = [];
        for await (const token of sequence.evaluate(ids, { temperature: 0 })) {
          generated.push(token);
          if (generated.length === 3) break;
        }
        expect(generated).toHaveLength(3);
        for (const token of generated) expect(token).toBeGreaterThanOrEqual(0);
      } finally {
        await context.dispose();
      }
    } finally {
      await model.dispose();
    }
  });
});

describe("a q8_0 model with an untied output projection", () => {
  it("loads in node-llama-cpp", async () => {
    const { path } = await createRandomModel({
      path: join(directory, "q8.gguf"),
      preset: "tiny",
      architecture: "qwen2",
      seed: 6,
      weightType: "q8_0",
      untiedOutput: true,
    });
    const model = await llama.loadModel({ modelPath: path });
    try {
      expect(Array.from(model.tokenize("ok"))).toEqual([111 + 3, 107 + 3]);
    } finally {
      await model.dispose();
    }
  });
});
