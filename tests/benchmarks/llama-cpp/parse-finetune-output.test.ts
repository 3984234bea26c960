import { describe, expect, it } from "vitest";
import { finetuneStepStarts, finetuneTokensPerSecond } from "../../../src/benchmarks/llama-cpp/parse-finetune-output.js";
import { LlamaCppToolError } from "../../../src/benchmarks/errors/index.js";

/** stderr of `llama-finetune` (bundled release) on the medium random model, 6 windows of 512 tokens, 1 thread. */
const OUTPUT = [
  "0.00.019.222 I main: forcing load_mode = none to enable writable pointers to the weights",
  "0.00.042.709 I cmn          init: llama threadpool init, n_threads = 1",
  "0.00.049.474 I system_info: n_threads = 1 (n_threads_batch = 1) / 2 | CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 | ",
  "0.00.051.182 I -optimizer adamw -lr0 0.0001 -wd 0.01 -lr-min -1 -min-epochs -1 -epochs 1 -period 1 -val 0",
  "0.00.110.171 I epoch 0 lr=0.0001",
  "train: [█▎      ] data=0000001/0000006 loss=5.61152±nan acc=0.39±0.28% t=00:00:01 ETA=00:00:05 \r0.01.156.594 I epoch 0 lr=0.0001",
  "train: [██▋     ] data=0000002/0000006 loss=5.47536±0.13617 acc=1.76±0.41% t=00:00:01 ETA=00:00:03 \r0.01.899.355 I epoch 0 lr=0.0001",
  "train: [███▉    ] data=0000003/0000006 loss=5.37095±0.13070 acc=2.28±0.38% t=00:00:02 ETA=00:00:02 \r0.02.815.298 I epoch 0 lr=0.0001",
  "train: [█████▎  ] data=0000004/0000006 loss=5.27739±0.13150 acc=3.03±0.38% t=00:00:03 ETA=00:00:01 \r0.03.760.250 I epoch 0 lr=0.0001",
  "train: [██████▋ ] data=0000005/0000006 loss=5.18750±0.13586 acc=3.48±0.36% t=00:00:04 ETA=00:00:00 \r1.04.969.660 I epoch 0 lr=0.0001",
  "train: [███████▉] data=0000006/0000006 loss=5.11016±0.13522 acc=4.43±0.37% t=00:00:06 ETA=00:00:00 ",
  "",
].join("\n");

describe("llama-finetune's output", () => {
  it("gives each optimizer step's start, minutes.seconds.milliseconds.microseconds, whatever ends the line", () => {
    const starts = finetuneStepStarts(OUTPUT);
    const expected = [0.110171, 1.156594, 1.899355, 2.815298, 3.76025, 64.96966];
    expect(starts).toHaveLength(expected.length);
    expected.forEach((seconds, index) => expect(starts[index]).toBeCloseTo(seconds, 9));
  });

  it("times the whole steps from the second start to the last: 4 steps × 512 tokens over 63.813066 s", () => {
    expect(finetuneTokensPerSecond(OUTPUT, 512)).toBeCloseTo((4 * 512) / (64.96966 - 1.156594), 9);
  });

  it("refuses to time fewer than 3 steps, naming the tool", () => {
    const twoSteps = OUTPUT.split("\n").slice(0, 6).join("\n");
    expect(finetuneStepStarts(twoSteps)).toHaveLength(2);
    expect(() => finetuneTokensPerSecond(twoSteps, 512)).toThrow(LlamaCppToolError);
    expect(() => finetuneTokensPerSecond("", 512)).toThrow(/^llama-finetune: logged 0 optimizer step\(s\) with timestamps; timing needs 3 or more/);
  });
});
