import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { GgmlPolicy } from "../../../src/training/ggml/ggml-policy.js";

let folder: string;
let modelPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-ggml-adamw-"));
  modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const SETTINGS = { learningRate: 1e-2, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0.01, maxGradientNorm: 1 };

/** src/training/tfjs/optimizer/adamw.ts and clip-gradient-norm.ts, in double precision. */
function reference(weights: Float32Array[], gradients: Float32Array[], step: number) {
  const norm = Math.sqrt(gradients.reduce((sum, gradient) => sum + gradient.reduce((inner, value) => inner + value * value, 0), 0));
  const scale = Math.min(1, SETTINGS.maxGradientNorm / (norm + 1e-6));
  return weights.map((weight, tensor) =>
    Float64Array.from(weight, (value, index) => {
      const gradient = gradients[tensor]![index]! * scale;
      const m = (1 - SETTINGS.beta1) * gradient;
      const v = (1 - SETTINGS.beta2) * gradient * gradient;
      const update = m / (1 - SETTINGS.beta1 ** step) / (Math.sqrt(v / (1 - SETTINGS.beta2 ** step)) + SETTINGS.epsilon);
      return value - SETTINGS.learningRate * (update + SETTINGS.weightDecay * value);
    }),
  );
}

// "auto" runs the AVX-512 AdamW kernel where this CPU has it, "portable" ggml's own GGML_OP_OPT_STEP_ADAMW.
describe.each(["auto", "portable"] as const)("GgmlPolicy.native.step (AdamW, global-norm clipping in the graph; cpuKernels %s)", (cpuKernels) => {
  let policy: GgmlPolicy;
  beforeAll(async () => {
    policy = await GgmlPolicy.load({ modelPath, trainable: true, cpuKernels });
  });
  afterAll(async () => {
    await policy.dispose();
  });

  it("updates weights and moments as the tfjs optimizer does, clipping by the global norm", async () => {
    const names = ["blk.0.attn_q.weight", "output_norm.weight"];
    const weights = names.map((name) => policy.native.readTensor(name, "weight"));
    // Gradients of global norm ≈ 3: clipped to 1.
    const gradients = weights.map((weight, tensor) => Float32Array.from(weight, (_, index) => 0.3 * Math.sin(index + 7 * tensor)));
    policy.native.clearGradients();
    names.forEach((name, index) => policy.native.writeTensor(name, "gradient", gradients[index]!));
    const result = await policy.native.step({ ...SETTINGS, step: 1 });
    const norm = Math.sqrt(gradients.reduce((sum, gradient) => sum + gradient.reduce((inner, value) => inner + value * value, 0), 0));
    expect(result.applied).toBe(true);
    expect(result.gradientNorm).toBeCloseTo(norm, 4);
    const expected = reference(weights, gradients, 1);
    names.forEach((name, tensor) => {
      const updated = policy.native.readTensor(name, "weight");
      updated.forEach((value, index) => expect(Math.abs(value - expected[tensor]![index]!)).toBeLessThan(1e-6));
      const firstMoment = policy.native.readTensor(name, "adam_m");
      const scale = 1 / (norm + 1e-6);
      firstMoment.forEach((value, index) => expect(value).toBeCloseTo(0.1 * gradients[tensor]![index]! * scale, 6));
    });
    // The accumulators are cleared for the next minibatch.
    expect(policy.native.readTensor(names[0]!, "gradient").every((value) => value === 0)).toBe(true);
  });

  it("skips a step whose gradient is not finite, and clears it", async () => {
    const name = "blk.0.ffn_up.weight";
    const before = policy.native.readTensor(name, "weight");
    const gradient = new Float32Array(before.length);
    gradient[3] = Number.NaN;
    policy.native.writeTensor(name, "gradient", gradient);
    const result = await policy.native.step({ ...SETTINGS, step: 2 });
    expect(result.applied).toBe(false);
    expect(Number.isFinite(result.gradientNorm)).toBe(false);
    expect(policy.native.readTensor(name, "weight")).toEqual(before);
    expect(policy.native.readTensor(name, "gradient").every((value) => value === 0)).toBe(true);
  });

  it("refuses bad settings and unknown tensors with the fix in the message", async () => {
    await expect(policy.native.step({ ...SETTINGS, step: 0 })).rejects.toThrow(/step/);
    expect(() => policy.native.readTensor("blk.99.attn_q.weight", "weight")).toThrow(/no tensor blk\.99/);
    expect(() => policy.native.writeTensor("output_norm.weight", "weight", new Float32Array(3))).toThrow(/expected \d+ values/);
  });
});
