import { describe, expect, it } from "vitest";
import { describeThreads } from "../../../src/core/thread-choice.js";
import { MULTI_THREAD_DECODE_PARAMETERS, rolloutThreads } from "../../../src/inference/llama/rollout-threads.js";

/** Parameter counts of the models the threshold was measured on (their GGUF tensors' elements). */
const MEDIUM_PRESET = 3_500_000;
const SMOLLM2_135M = 134_515_008;
const QWEN2_05B_PRESET = 494_032_768;

describe("rolloutThreads", () => {
  it("takes a configured count whatever the model", () => {
    expect(rolloutThreads(3, MEDIUM_PRESET, 16)).toEqual({ threads: 3, reason: "from threads" });
    expect(rolloutThreads(1, QWEN2_05B_PRESET, 16)).toEqual({ threads: 1, reason: "from threads" });
  });

  it("decodes a small model on one thread and a large one on every core, at the measured threshold", () => {
    expect(rolloutThreads(undefined, MEDIUM_PRESET, 2)).toEqual({ threads: 1, reason: "default: 1 for a model of 4M parameters, under 100M" });
    expect(rolloutThreads(undefined, QWEN2_05B_PRESET, 2)).toEqual({ threads: 2, reason: "default: this machine's cores, for a model of 494M parameters" });
    expect(rolloutThreads(undefined, QWEN2_05B_PRESET, 16).threads).toBe(16);
    expect(rolloutThreads(undefined, SMOLLM2_135M, 2)).toEqual({ threads: 2, reason: "default: this machine's cores, for a model of 135M parameters" });
    expect(rolloutThreads(undefined, MULTI_THREAD_DECODE_PARAMETERS - 1, 8).threads).toBe(1);
    expect(rolloutThreads(undefined, MULTI_THREAD_DECODE_PARAMETERS, 8).threads).toBe(8);
  });

  it("is said as the trainer's update threads are", () => {
    expect(describeThreads(rolloutThreads(undefined, QWEN2_05B_PRESET, 2), "decode")).toBe("2 decode thread(s) (default: this machine's cores, for a model of 494M parameters)");
    expect(describeThreads({ threads: 2, reason: "default: this machine's cores" }, "update")).toBe("2 update thread(s) (default: this machine's cores)");
  });
});
