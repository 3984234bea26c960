import { totalmem } from "node:os";
import { describe, expect, it } from "vitest";
import { main } from "../../../../src/cli/program.js";
import { chooseContextSize } from "../../../../src/inference/llama/choose-context-size.js";
import { loadLlama } from "../../../../src/inference/llama/load-llama.js";
import { rolloutThreads } from "../../../../src/inference/llama/rollout-threads.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";

/** SmolLM2-135M-Instruct's `llama.context_length` and parameters (its tensors' elements). */
const SMOLLM2 = { contextLength: 8192, parameters: 134_515_008 };

describe.skipIf(!realModelAvailable)(`the engine's context and threads on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  it("generate opens it with the file's context and the thread rule's count, and says both under the device line", async () => {
    let stderr = "";
    const code = await main(["generate", "--model", SMOLLM2_PATH, "--prompt", "Hi", "--temperature", "0", "--max-tokens", "1", "--device", "cpu"], {
      io: { stdout: () => undefined, stderr: (text) => void (stderr += text), isTerminal: false },
    });
    expect(code, stderr).toBe(0);
    const { threads, reason } = rolloutThreads(undefined, SMOLLM2.parameters);
    expect(stderr.split("\n")[1]).toBe(`engine: ${SMOLLM2.contextLength}-token context a sequence (the file's context_length), ${threads} decode thread(s) (${reason})`);
    expect(reason).toContain("135M parameters");
  });

  it("caps the file's context by the memory check when the sequences' KV cache would not fit, and says so", async () => {
    const llama = await loadLlama("cpu");
    const model = await llama.loadModel({ modelPath: SMOLLM2_PATH, vocabOnly: true });
    try {
      const options = { requested: undefined, mode: "exact", weightsLoaded: false } as const;
      expect(await chooseContextSize(llama, model, { ...options, sequences: 1 })).toEqual({ contextSize: SMOLLM2.contextLength, reason: "the file's context_length" });
      // f32 keys and values: 30 blocks × 3 heads × 64 × 2 × 4 bytes a token; twice this machine's memory at the full context.
      const sequences = Math.ceil((2 * totalmem()) / (SMOLLM2.contextLength * 30 * 3 * 64 * 2 * 4));
      const capped = await chooseContextSize(llama, model, { ...options, sequences });
      expect(capped.contextSize).toBeLessThan(SMOLLM2.contextLength / 2);
      expect(capped.contextSize).toBeGreaterThan(0);
      expect(capped.reason).toMatch(new RegExp(`^the file's context_length 8192, capped by the memory check for ${sequences} sequence\\(s\\): \\d+\\.\\d GiB of RAM free$`));
      expect(await chooseContextSize(llama, model, { ...options, requested: 512, sequences })).toEqual({ contextSize: 512, reason: "from contextSize" });
    } finally {
      await model.dispose();
    }
  });
});
