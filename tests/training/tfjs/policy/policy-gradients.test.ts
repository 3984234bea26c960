import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../../src/inference/model-files/create-random-model.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";
import { writeTestAdapter } from "../../helpers/write-test-adapter.js";

const SEQUENCES = [
  { promptTokenIds: [1, 72, 105], completionTokenIds: [33, 200, 14, 77, 250, 6], temperature: 0.7 },
  { promptTokenIds: [1, 40, 41, 42, 43], completionTokenIds: [44, 45, 46], temperature: 1 },
];

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-gradients-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Σ logprobs of SEQUENCES: the kind of loss a policy-gradient trainer differentiates. */
const loss = (policy: Policy) => tf.sum(policy.completionLogprobs(SEQUENCES)) as tf.Scalar;

/**
 * For each named variable, the partial derivative at its largest-gradient entry
 * by the backward pass and by central finite differences (f32, so ε is not tiny).
 */
function partialDerivatives(policy: Policy, names: readonly string[], epsilon: number): Array<{ name: string; backward: number; finiteDifference: number }> {
  const variables = names.map((name) => policy.variables.get(name)!);
  const { grads } = tf.variableGrads(() => loss(policy), variables);
  return names.map((name, index) => {
    const variable = variables[index]!;
    const gradient = Array.from(grads[variable.name]!.dataSync());
    const entry = gradient.reduce((best, value, position) => (Math.abs(value) > Math.abs(gradient[best]!) ? position : best), 0);
    const original = Float32Array.from(variable.dataSync());
    const lossWith = (delta: number) => {
      const shifted = original.slice();
      shifted[entry] = original[entry]! + delta;
      variable.assign(tf.tensor(shifted, variable.shape));
      return tf.tidy(() => loss(policy).dataSync()[0]!);
    };
    const finiteDifference = (lossWith(epsilon) - lossWith(-epsilon)) / (2 * epsilon);
    variable.assign(tf.tensor(original, variable.shape));
    return { name, backward: gradient[entry]!, finiteDifference };
  });
}

describe("Policy gradients (custom embedding and matMul gradients, on the default backend)", () => {
  it.each([
    ["llama, grouped-query attention", "llama", "small"],
    ["qwen2, with biases", "qwen2", "tiny"],
  ] as const)("match finite differences for every kind of weight (%s)", async (_, architecture, preset) => {
    const { path } = await createRandomModel({ path: join(folder, `${architecture}.gguf`), preset, architecture, seed: 3, initialisationScale: 0.1 });
    const policy = await Policy.load({ modelPath: path });
    try {
      const names = [
        "token_embd.weight", "blk.0.attn_norm.weight", "blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight",
        "blk.0.attn_output.weight", "blk.1.ffn_norm.weight", "blk.1.ffn_gate.weight", "blk.1.ffn_up.weight", "blk.1.ffn_down.weight",
        "output_norm.weight", ...(architecture === "qwen2" ? ["blk.0.attn_q.bias", "blk.1.attn_k.bias"] : []),
      ];
      for (const { name, backward, finiteDifference } of partialDerivatives(policy, names, 1e-2)) {
        expect(Math.abs(backward), name).toBeGreaterThan(1e-3);
        expect(Math.abs(finiteDifference - backward), name).toBeLessThan(1e-2 * Math.abs(backward) + 5e-4);
      }
    } finally {
      policy.dispose();
    }
  });

  it("match finite differences for LoRA factors, and leave the frozen base out", async () => {
    const { path } = await createRandomModel({ path: join(folder, "lora-base.gguf"), preset: "tiny", architecture: "llama", seed: 5, initialisationScale: 0.1 });
    const adapterPath = join(folder, "adapter.gguf");
    await writeTestAdapter({ path: adapterPath, modelPath: path, targets: ["blk.0.attn_k.weight", "blk.1.ffn_up.weight"], rank: 4, alpha: 4, seed: 2 });
    const policy = await Policy.load({ modelPath: path, loraPath: adapterPath });
    try {
      const { grads } = tf.variableGrads(() => loss(policy), policy.trainableVariables);
      expect(Object.keys(grads)).toHaveLength(4);
      const names = ["blk.0.attn_k.weight.lora_a", "blk.0.attn_k.weight.lora_b", "blk.1.ffn_up.weight.lora_a", "blk.1.ffn_up.weight.lora_b"];
      for (const { name, backward, finiteDifference } of partialDerivatives(policy, names, 1e-2)) {
        expect(Math.abs(finiteDifference - backward), name).toBeLessThan(1e-2 * Math.abs(backward) + 5e-4);
      }
    } finally {
      policy.dispose();
    }
  });
});
