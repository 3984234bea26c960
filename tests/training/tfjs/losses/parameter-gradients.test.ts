import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../../src/inference/model-files/create-random-model.js";
import { aggregationWeights } from "../../../../src/training/update/aggregation-weights.js";
import { policyLoss } from "../../../../src/training/tfjs/losses/policy-loss.js";
import { PolicyLossConfigurationSchema } from "../../../../src/training/update/policy-loss-configuration.js";
import { clippedValueLoss } from "../../../../src/training/tfjs/losses/value-loss.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";
import { ValueHead } from "../../../../src/training/tfjs/value/value-head.js";

const SEQUENCES = [
  { promptTokenIds: [1, 72, 105], completionTokenIds: [33, 200, 14, 77, 250], temperature: 0.8 },
  { promptTokenIds: [1, 40, 41, 42], completionTokenIds: [44, 45, 46], temperature: 1 },
];
const TOKENS = 8;
const LENGTHS = [5, 3];
/** log π_θ − log π_old per token at the start: some ratios beyond the clip range (their gradient stops), most inside. */
const RATIO_LOGS = [0.5, 0.1, -0.05, 0.02, -0.5, 0.08, 0, -0.12];
const ADVANTAGES = [1, 1, 1, 1, -1, -1, -1, -1];
const RETURNS = [1, 1, 1, 1, -1, -1, -1, -1];

let folder: string;
let policy: Policy;
let valueHead: ValueHead;
let constants: Record<string, tf.Tensor1D>;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-parameter-gradients-"));
  const { path } = await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 8, initialisationScale: 0.1 });
  policy = await Policy.load({ modelPath: path, backends: ["cpu"] });
  // A head that is not zero, so the value loss reaches the trunk.
  valueHead = ValueHead.create({ embeddingLength: policy.configuration.embeddingLength, initial: { weight: Float32Array.from({ length: policy.configuration.embeddingLength }, (_, index) => 0.05 * Math.cos(index)), bias: 0.1 } });
  const current = Array.from(tf.tidy(() => policy.completionLogprobs(SEQUENCES, { withGradients: false })).dataSync());
  const oldValues = Array.from(tf.tidy(() => valueHead.values(policy.completionOutputs(SEQUENCES, { hiddenStates: true }).hiddenStates!)).dataSync());
  constants = {
    oldLogprobs: tf.tensor1d(current.map((value, index) => value - RATIO_LOGS[index]!)),
    engineLogprobs: tf.tensor1d(current.map((value, index) => value - RATIO_LOGS[index]! - 0.1 * Math.sin(index))),
    advantages: tf.tensor1d(ADVANTAGES),
    weights: tf.tensor1d(aggregationWeights(LENGTHS, "token-mean")),
    referenceLogprobs: tf.tensor1d(current.map((value, index) => value + 0.3 * Math.cos(index))),
    oldValues: tf.tensor1d(oldValues.map((value, index) => value + 0.05 * Math.sin(3 * index))),
    returns: tf.tensor1d(RETURNS),
  };
});

afterAll(async () => {
  policy?.dispose();
  valueHead?.dispose();
  await rm(folder, { recursive: true, force: true });
});

/** Classic PPO's whole loss: clipped surrogate with importance weights, k3 KL, entropy bonus and the clipped value loss. */
function totalLoss(): tf.Scalar {
  const configuration = PolicyLossConfigurationSchema.parse({ objective: "clipped", klCoefficient: 0.2, entropyCoefficient: 0.05 });
  const outputs = policy.completionOutputs(SEQUENCES, { entropy: true, hiddenStates: true });
  const { loss } = policyLoss(
    { ...(constants as unknown as { oldLogprobs: tf.Tensor1D; engineLogprobs: tf.Tensor1D; advantages: tf.Tensor1D; weights: tf.Tensor1D; referenceLogprobs: tf.Tensor1D }), logprobs: outputs.logprobs, entropy: outputs.entropy! },
    configuration,
  );
  const valueLoss = clippedValueLoss(valueHead.values(outputs.hiddenStates!), constants.oldValues!, constants.returns!, constants.weights!, 0.2);
  return tf.add(loss, tf.mul(valueLoss, 0.5));
}

describe("parameter gradients of the whole loss through the tiny model (cpu backend)", () => {
  it("match central differences within 1e-2 relative for sampled parameters", () => {
    const names = ["token_embd.weight", "blk.0.attn_q.weight", "blk.0.attn_v.weight", "blk.1.ffn_down.weight", "blk.1.attn_norm.weight", "output_norm.weight"];
    const variables = [...names.map((name) => policy.variables.get(name)!), valueHead.weight, valueHead.bias];
    expect(TOKENS).toBe(LENGTHS.reduce((sum, length) => sum + length, 0));
    const { value, grads } = tf.variableGrads(totalLoss, variables);
    value.dispose();
    const figures: string[] = [];
    for (const variable of variables) {
      const gradient = Array.from(grads[variable.name]!.dataSync());
      // Two entries per variable: the largest gradient and the one at the 90th percentile of |gradient|, both well above float32 noise.
      const byMagnitude = gradient.map((entry, position) => ({ entry, position })).sort((left, right) => Math.abs(right.entry) - Math.abs(left.entry));
      const sampled = [byMagnitude[0]!, byMagnitude[Math.floor(byMagnitude.length * 0.1)]!].filter((candidate, index, all) => index === 0 || candidate.position !== all[0]!.position);
      const original = Float32Array.from(variable.dataSync());
      for (const { entry, position } of sampled) {
        if (Math.abs(entry) < 5e-3) continue;
        const epsilon = 1e-2 * Math.max(1, Math.abs(original[position]!));
        const lossWith = (delta: number) => {
          const shifted = original.slice();
          shifted[position] = original[position]! + delta;
          variable.assign(tf.tensor(shifted, variable.shape));
          return tf.tidy(() => totalLoss().dataSync()[0]!);
        };
        const finiteDifference = (lossWith(epsilon) - lossWith(-epsilon)) / (2 * epsilon);
        variable.assign(tf.tensor(original, variable.shape));
        const relative = Math.abs(finiteDifference - entry) / Math.abs(entry);
        figures.push(`${variable.name}[${position}] ${entry.toExponential(3)} ${relative.toExponential(2)}`);
        expect(relative, `${variable.name}[${position}]: backward ${entry}, central difference ${finiteDifference}`).toBeLessThan(1e-2);
      }
    }
    Object.values(grads).forEach((gradient) => gradient.dispose());
    // Every variable contributed at least its largest entry.
    expect(figures.length).toBeGreaterThanOrEqual(variables.length);
    if (process.env["SELFPLAY_PRINT_FIGURES"]) console.log(figures.join("\n"));
  });
});
