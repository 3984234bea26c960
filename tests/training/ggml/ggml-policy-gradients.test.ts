import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { GgmlPolicy } from "../../../src/training/ggml/ggml-policy.js";
import { Policy } from "../../../src/training/tfjs/policy/policy.js";
import { transpose } from "../../../src/training/tfjs/sync/export-policy-model.js";
import { writeTestAdapter } from "../helpers/write-test-adapter.js";

const SEQUENCES = [
  { promptTokenIds: [1, 72, 105], completionTokenIds: [33, 200, 14, 77, 250, 6], temperature: 0.7 },
  { promptTokenIds: [1, 40, 41, 42, 43], completionTokenIds: [44, 45, 46], temperature: 1 },
  { promptTokenIds: [9], completionTokenIds: [120, 121], temperature: 1.3 },
];
/**
 * Whether this is an x86 Linux CPU with AVX-512F (its flags in /proc/cpuinfo, as the trainer's
 * `__builtin_cpu_supports("avx512f")` sees them): there "auto" must pick the AVX-512 kernels (the bundled ggml has
 * ggml_custom_4d), elsewhere the portable one.
 */
const cpuHasAvx512f = process.platform === "linux" && process.arch === "x64" && /\bavx512f\b/.test(readFileSync("/proc/cpuinfo", "utf8"));

const TARGETS = SEQUENCES.reduce((sum, sequence) => sum + sequence.completionTokenIds.length, 0);
// The loss: Σ c·logprob + Σ d·entropy with fixed mixed-sign weights, as a policy loss's derivatives look.
const C = Float32Array.from({ length: TARGETS }, (_, index) => Math.sin(1 + 3 * index));
const D = Float32Array.from({ length: TARGETS }, (_, index) => 0.5 * Math.cos(2 + 5 * index));

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-ggml-gradients-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

type Sequences = typeof SEQUENCES;

async function lossOf(policy: GgmlPolicy, sequences: Sequences = SEQUENCES): Promise<number> {
  const outputs = await policy.native.forward(chunkOf(sequences), { entropy: true, gradients: false });
  let loss = 0;
  for (let index = 0; index < TARGETS; index++) loss += C[index]! * outputs.logprobs[index]! + D[index]! * outputs.entropy![index]!;
  return loss;
}

/** Every trainable tensor's gradient of the loss, by ggml's backward pass. */
async function ggmlGradients(policy: GgmlPolicy, sequences: Sequences = SEQUENCES): Promise<Map<string, Float32Array>> {
  policy.native.clearGradients();
  await policy.accumulateGradients(sequences, { entropy: true }, ({ logprobs, firstTarget }) => ({
    logprobs: C.slice(firstTarget, firstTarget + logprobs.length),
    entropy: D.slice(firstTarget, firstTarget + logprobs.length),
  }));
  const gradients = new Map<string, Float32Array>();
  for (const tensor of policy.tensors.filter((tensor) => tensor.trainable)) gradients.set(tensor.name, policy.native.readTensor(tensor.name, "gradient"));
  return gradients;
}

function chunkOf(sequences: Sequences) {
  // All three sequences fit one row at the default chunk size.
  const tokens = sequences.flatMap((sequence) => [...sequence.promptTokenIds, ...sequence.completionTokenIds.slice(0, -1)]);
  let row = 0;
  const targetRows: number[] = [];
  for (const sequence of sequences) {
    sequence.completionTokenIds.forEach((_, position) => targetRows.push(row + sequence.promptTokenIds.length - 1 + position));
    row += sequence.promptTokenIds.length + sequence.completionTokenIds.length - 1;
  }
  return {
    tokens: Int32Array.from(tokens),
    sequenceLengths: Int32Array.from(sequences.map((sequence) => sequence.promptTokenIds.length + sequence.completionTokenIds.length - 1)),
    targetRows: Int32Array.from(targetRows),
    targetTokens: Int32Array.from(sequences.flatMap((sequence) => sequence.completionTokenIds)),
    temperatures: Float32Array.from(sequences.flatMap((sequence) => sequence.completionTokenIds.map(() => sequence.temperature))),
  };
}

const norm = (values: Float32Array) => Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));

const tinyModel = async (architecture: "llama" | "qwen2") =>
  (await createRandomModel({ path: join(folder, `${architecture}.gguf`), preset: "tiny", architecture, seed: 3, untiedOutput: architecture === "qwen2" })).path;

// Every check runs on both CPU paths: "auto" takes the AVX-512 kernels where this CPU has them, "portable" ggml's own operations.
const CASES = (["llama", "qwen2"] as const).flatMap((architecture) => (["auto", "portable"] as const).map((cpuKernels) => ({ architecture, cpuKernels })));

describe.each(CASES)("ggml gradients ($architecture, tiny, f32, cpuKernels $cpuKernels)", ({ architecture, cpuKernels }) => {
  let modelPath: string;
  let policy: GgmlPolicy;
  let gradients: Map<string, Float32Array>;
  beforeAll(async () => {
    modelPath = await tinyModel(architecture);
    policy = await GgmlPolicy.load({ modelPath, trainable: true, cpuKernels });
    gradients = await ggmlGradients(policy);
  });
  afterAll(async () => {
    await policy.dispose();
  });

  it("match central differences (ε = 1e-3) along the whole gradient within 1e-3 relative", async () => {
    const epsilon = 1e-3;
    const length = Math.sqrt([...gradients.values()].reduce((sum, gradient) => sum + norm(gradient) ** 2, 0));
    const originals = new Map([...gradients.keys()].map((name) => [name, policy.native.readTensor(name, "weight")]));
    const lossAt = async (sign: number) => {
      for (const [name, gradient] of gradients) {
        const original = originals.get(name)!;
        policy.native.writeTensor(name, "weight", Float32Array.from(original, (value, index) => value + (sign * epsilon * gradient[index]!) / length));
      }
      return lossOf(policy);
    };
    const plus = await lossAt(1);
    const minus = await lossAt(-1);
    for (const [name, original] of originals) policy.native.writeTensor(name, "weight", original);
    // The directional derivative along g/‖g‖ is ‖g‖.
    expect(Math.abs((plus - minus) / (2 * epsilon) - length) / length).toBeLessThan(1e-3);
  });

  it("match central differences (ε = 1e-3) along each tensor's own gradient", async () => {
    const epsilon = 1e-3;
    // f32 rounding of a loss near 2 (~2e-7 each side) divided by 2ε: about 2e-4, and the
    // quotient's own O(ε²) error on top. Below this floor a difference quotient says nothing;
    // the small tensors (qwen2's key bias, the q projections) are checked by the tfjs cosine.
    const floor = 5e-4;
    for (const [name, gradient] of gradients) {
      const length = norm(gradient);
      const original = policy.native.readTensor(name, "weight");
      const shifted = (sign: number) => Float32Array.from(original, (value, index) => value + (sign * epsilon * gradient[index]!) / (length || 1));
      policy.native.writeTensor(name, "weight", shifted(1));
      const plus = await lossOf(policy);
      policy.native.writeTensor(name, "weight", shifted(-1));
      const minus = await lossOf(policy);
      policy.native.writeTensor(name, "weight", original);
      expect(Math.abs((plus - minus) / (2 * epsilon) - length), name).toBeLessThanOrEqual(1e-3 * length + floor);
    }
  });

  // At temperature 1 everywhere the graph divides by nothing (ggml-forward-graph.cpp): both graphs are checked.
  it.each([
    { batch: "mixed temperatures", sequences: SEQUENCES },
    { batch: "temperature 1 everywhere", sequences: SEQUENCES.map((sequence) => ({ ...sequence, temperature: 1 })) },
  ])("match the tfjs trainer's gradients on the same batch ($batch): cosine ≥ 0.9999 per tensor", async ({ sequences }) => {
    const gradients = await ggmlGradients(policy, sequences);
    const reference = await Policy.load({ modelPath });
    try {
      const variables = reference.trainableVariables;
      const { grads } = tf.variableGrads(() => {
        const outputs = reference.completionOutputs(sequences, { entropy: true });
        return tf.add(tf.sum(tf.mul(outputs.logprobs, tf.tensor1d(C))), tf.sum(tf.mul(outputs.entropy!, tf.tensor1d(D)))) as tf.Scalar;
      }, variables);
      let compared = 0;
      for (const [name, variable] of reference.variables) {
        const ours = gradients.get(name);
        if (!variable.trainable || ours === undefined) continue;
        let theirs = grads[variable.name]!.dataSync() as Float32Array;
        // tfjs keeps linear weights transposed ([in, out]); ggml as GGUF stores them.
        if (variable.shape.length === 2 && name !== "token_embd.weight") theirs = transpose(theirs, variable.shape[0]!, variable.shape[1]!);
        const cosine = ours.reduce((sum, value, index) => sum + value * theirs[index]!, 0) / (norm(ours) * norm(theirs));
        expect(cosine, name).toBeGreaterThanOrEqual(0.9999);
        compared++;
      }
      expect(compared).toBe(gradients.size);
    } finally {
      reference.dispose();
    }
  });
});

describe.each([
  { weightType: "f32", cpuKernels: "auto" },
  { weightType: "f32", cpuKernels: "portable" },
  { weightType: "q8_0", cpuKernels: "auto" },
  { weightType: "q8_0", cpuKernels: "portable" },
  { weightType: "f16", cpuKernels: "auto" },
] as const)("ggml LoRA gradients over a frozen $weightType base (cpuKernels $cpuKernels)", ({ weightType, cpuKernels }) => {
  it("match the tfjs trainer's: cosine ≥ 0.9999 per factor, and only the factors train", async () => {
    const modelPath = (await createRandomModel({ path: join(folder, `lora-${weightType}.gguf`), preset: "tiny", architecture: "qwen2", seed: 5, weightType })).path;
    const loraPath = join(folder, `lora-${weightType}.adapter.gguf`);
    await writeTestAdapter({ path: loraPath, modelPath, targets: ["blk.0.attn_q.weight", "blk.0.ffn_down.weight", "blk.1.attn_v.weight"], rank: 4, alpha: 8, seed: 2 });
    const policy = await GgmlPolicy.load({ modelPath, loraPath, trainable: true, cpuKernels });
    const reference = await Policy.load({ modelPath, loraPath });
    try {
      expect(policy.tensors.filter((tensor) => tensor.trainable).map((tensor) => tensor.name).sort()).toEqual(
        ["blk.0.attn_q.weight", "blk.0.ffn_down.weight", "blk.1.attn_v.weight"].flatMap((name) => [`${name}.lora_a`, `${name}.lora_b`]).sort(),
      );
      const gradients = await ggmlGradients(policy);
      const { grads } = tf.variableGrads(() => {
        const outputs = reference.completionOutputs(SEQUENCES, { entropy: true });
        return tf.add(tf.sum(tf.mul(outputs.logprobs, tf.tensor1d(C))), tf.sum(tf.mul(outputs.entropy!, tf.tensor1d(D)))) as tf.Scalar;
      }, reference.trainableVariables);
      for (const [name, ours] of gradients) {
        const variable = reference.variables.get(name)!;
        const theirs = transpose(grads[variable.name]!.dataSync() as Float32Array, variable.shape[0]!, variable.shape[1]!);
        const cosine = ours.reduce((sum, value, index) => sum + value * theirs[index]!, 0) / (norm(ours) * norm(theirs));
        expect(cosine, name).toBeGreaterThanOrEqual(0.9999);
      }
    } finally {
      await policy.dispose();
      reference.dispose();
    }
  });
});

describe.each([
  { weightType: "q8_0", cpuKernels: "auto" },
  { weightType: "q4_0", cpuKernels: "auto" },
  { weightType: "q8_0", cpuKernels: "generic" },
  { weightType: "q4_0", cpuKernels: "generic" },
] as const)("the dequantising product kernel over a frozen $weightType base (cpuKernels $cpuKernels)", ({ weightType, cpuKernels }) => {
  // The backward through the frozen matrices (every block projection and the output layer) runs
  // ggml-dequantising-product-kernel.h: with "auto" its AVX-512 tile where the CPU has it, with "generic" its
  // portable tile on any CPU (what a CPU without AVX-512 gets); "portable" runs ggml's own out_prod. Each sums
  // every element over k in order, so the gradients agree to f32 rounding, not just in direction.
  const noAvx512 = cpuKernels === "auto" && !cpuHasAvx512f;
  it.skipIf(noAvx512)(`gives ggml's own out_prod's gradients${noAvx512 ? ' (skipped: no avx512f in /proc/cpuinfo, so "auto" is "generic", checked beside)' : ""}`, async () => {
    const modelPath = (await createRandomModel({ path: join(folder, `dequantising-${weightType}.gguf`), preset: "tiny", architecture: "qwen2", seed: 7, weightType })).path;
    const loraPath = join(folder, `dequantising-${weightType}.adapter.gguf`);
    await writeTestAdapter({ path: loraPath, modelPath, targets: ["blk.0.attn_k.weight", "blk.0.ffn_up.weight", "blk.1.attn_output.weight"], rank: 4, alpha: 8, seed: 4 });
    const gradientsBy = async (kernels: "auto" | "generic" | "portable") => {
      const policy = await GgmlPolicy.load({ modelPath, loraPath, trainable: true, cpuKernels: kernels });
      try {
        return { kernels: policy.cpuKernels, gradients: await ggmlGradients(policy) };
      } finally {
        await policy.dispose();
      }
    };
    const ours = await gradientsBy(cpuKernels);
    const ggmls = await gradientsBy("portable");
    expect(ours.kernels).toBe(cpuKernels === "auto" ? "avx512" : "generic");
    expect(ggmls.kernels).toBe("portable");
    expect([...ours.gradients.keys()].sort()).toEqual([...ggmls.gradients.keys()].sort());
    for (const [name, gradient] of ours.gradients) {
      const reference = ggmls.gradients.get(name)!;
      const scale = Math.max(...reference.map(Math.abs));
      expect(scale, name).toBeGreaterThan(0);
      const worst = Math.max(...gradient.map((value, index) => Math.abs(value - reference[index]!)));
      expect(worst / scale, name).toBeLessThanOrEqual(1e-5);
    }
  });
});

describe.each(["auto", "portable"] as const)("ggml gradients without an entropy term (cpuKernels %s)", (cpuKernels) => {
  // The loss is then Σ c·logprob alone, and the output softmax's incoming gradient is a view gallocr
  // does not reuse: SOFT_MAX_BACK was placed in place of the softmax's output and overwrote it (the
  // gradient came out ~100× too large and pointing downhill) until softmax outputs were marked outputs.
  it("match the tfjs trainer's gradient, norm and direction, for full weights and a LoRA over q8_0", async () => {
    const modelPath = (await createRandomModel({ path: join(folder, "no-entropy.gguf"), preset: "tiny", architecture: "qwen2", seed: 4 })).path;
    const quantised = (await createRandomModel({ path: join(folder, "no-entropy-q8.gguf"), preset: "tiny", architecture: "qwen2", seed: 4, weightType: "q8_0" })).path;
    const loraPath = join(folder, "no-entropy.adapter.gguf");
    await writeTestAdapter({ path: loraPath, modelPath: quantised, targets: ["blk.0.attn_v.weight", "blk.1.ffn_down.weight"], rank: 4, alpha: 8, seed: 2 });
    for (const [path, adapter] of [[modelPath, undefined], [quantised, loraPath]] as const) {
      const policy = await GgmlPolicy.load({ modelPath: path, ...(adapter !== undefined && { loraPath: adapter }), trainable: true, cpuKernels });
      const reference = await Policy.load({ modelPath: path, ...(adapter !== undefined && { loraPath: adapter }) });
      try {
        policy.native.clearGradients();
        await policy.accumulateGradients(SEQUENCES, { entropy: false }, ({ logprobs, firstTarget }) => ({ logprobs: C.slice(firstTarget, firstTarget + logprobs.length) }));
        const { grads } = tf.variableGrads(() => tf.sum(tf.mul(reference.completionLogprobs(SEQUENCES), tf.tensor1d(C))) as tf.Scalar, reference.trainableVariables);
        for (const tensor of policy.tensors.filter((candidate) => candidate.trainable)) {
          const ours = policy.native.readTensor(tensor.name, "gradient");
          const variable = reference.variables.get(tensor.name)!;
          let theirs = grads[variable.name]!.dataSync() as Float32Array;
          if (variable.shape.length === 2 && tensor.name !== "token_embd.weight") theirs = transpose(theirs, variable.shape[0]!, variable.shape[1]!);
          const cosine = ours.reduce((sum, value, index) => sum + value * theirs[index]!, 0) / (norm(ours) * norm(theirs));
          expect(cosine, tensor.name).toBeGreaterThanOrEqual(0.9999);
          // Within 1%: on the q8_0 base the engine quantises activations and tfjs does not (the bug was ~100×).
          expect(Math.abs(norm(ours) / norm(theirs) - 1), tensor.name).toBeLessThan(1e-2);
        }
      } finally {
        await policy.dispose();
        reference.dispose();
      }
    }
  });
});

describe.each(["llama", "qwen2"] as const)("ggml cpuKernels: auto and portable (%s, tiny, f32)", (architecture) => {
  // Measured here (AVX-512): gradients differ by at most 1.2e-6 of a tensor's largest entry (2.2e-6 on the medium model), logprobs by 4.8e-7.
  it("give the same loss and gradients up to f32 rounding: loss within 1e-6 per unit of weight, each tensor's gradient within 1e-5 of its largest entry", async () => {
    const modelPath = await tinyModel(architecture);
    const automatic = await GgmlPolicy.load({ modelPath, trainable: true, cpuKernels: "auto" });
    const portable = await GgmlPolicy.load({ modelPath, trainable: true, cpuKernels: "portable" });
    try {
      expect(portable.cpuKernels).toBe("portable");
      if (process.platform === "linux") expect(automatic.cpuKernels).toBe(cpuHasAvx512f ? "avx512" : "generic");
      const [lossAuto, lossPortable] = [await lossOf(automatic), await lossOf(portable)];
      // Each logprob and entropy moves by f32 rounding (≲ 1e-6 at these magnitudes), weighted by |c| and |d| in the loss.
      const weight = [...C, ...D].reduce((sum, value) => sum + Math.abs(value), 0);
      expect(Math.abs(lossAuto - lossPortable)).toBeLessThanOrEqual(1e-6 * weight);
      const [ours, theirs] = [await ggmlGradients(automatic), await ggmlGradients(portable)];
      expect([...ours.keys()]).toEqual([...theirs.keys()]);
      for (const [name, gradient] of ours) {
        const reference = theirs.get(name)!;
        const scale = Math.max(...reference.map(Math.abs));
        const largest = gradient.reduce((most, value, index) => Math.max(most, Math.abs(value - reference[index]!)), 0);
        expect(largest, name).toBeLessThanOrEqual(1e-5 * scale);
      }
    } finally {
      await automatic.dispose();
      await portable.dispose();
    }
  });
});
