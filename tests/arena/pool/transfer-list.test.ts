import { describe, expect, it } from "vitest";
import { transferListOf } from "../../../src/arena/pool/transfer-list.js";
import type { GenerationOutput } from "../../../src/core/inference-client.js";

const output = (promptTokenIds: Int32Array, completionTokenIds: Int32Array, completionLogprobs: Float64Array): GenerationOutput => ({
  text: "",
  promptTokenIds,
  completionTokenIds,
  completionLogprobs,
  finishReason: "stop",
  constrained: false,
  policyVersion: 0,
});

describe("transferListOf", () => {
  it("moves each buffer an array fills alone, once, and copies buffers that arrays share", () => {
    const prompt = Int32Array.of(1, 2);
    const logprobs = Float64Array.of(-1);
    const shared = new Int32Array(4);
    const list = transferListOf([
      output(prompt, shared.subarray(0, 2), logprobs),
      output(prompt, shared.subarray(2), new Float64Array(0)),
      output(Int32Array.of(3), Int32Array.of(5), Float64Array.of(-2)),
    ]);
    // `prompt` appears twice (the same array in two outputs): its buffer is shared, so it is copied.
    expect(list).not.toContain(prompt.buffer);
    expect(list).not.toContain(shared.buffer);
    expect(list).toContain(logprobs.buffer);
    expect(list).toHaveLength(5);
  });
});
