import * as tf from "@tensorflow/tfjs";
import type { TrainingRecord } from "../../src/core/schemas/training-record.js";
import { mismatchKl } from "../logprobs/mismatch-kl.js";
import { aggregationWeights } from "../losses/aggregation-weights.js";
import { policyLoss } from "../losses/policy-loss.js";
import type { AdamW } from "../optimizer/adamw.js";
import { clipGradientNorm } from "../optimizer/clip-gradient-norm.js";
import type { ScoredSequence } from "../policy/pack-sequences.js";
import type { Policy } from "../policy/policy.js";
import { selectTrainableRecords } from "./select-trainable-records.js";
import type { TrainerConfiguration } from "./trainer-configuration.js";
import type { UpdateMetrics } from "./update-metrics.js";
import { zeroAdvantageGroupShare } from "./zero-advantage-share.js";

export interface TrainOnBatchOptions {
  policy: Policy;
  optimizer: AdamW;
  configuration: TrainerConfiguration;
  /** The frozen reference policy of the KL penalty; needed when `loss.klCoefficient` > 0. */
  reference?: Policy;
  /** Orders minibatches; seeded by the caller so a run replays exactly. */
  random: () => number;
}

/**
 * One policy update on a batch of records: score the records with the
 * policy as it is (π_old) and the reference, then `epochs` passes of
 * minibatch gradient steps on the policy loss. Phases read top to bottom.
 */
export async function trainOnBatch(records: readonly TrainingRecord[], options: TrainOnBatchOptions): Promise<UpdateMetrics> {
  const started = performance.now();
  const { policy, optimizer, configuration, reference } = options;
  const { records: trained, skipped } = selectTrainableRecords(records);
  const sequences: ScoredSequence[] = trained.map((record) => ({
    promptTokenIds: record.promptTokenIds,
    completionTokenIds: record.completionTokenIds,
    temperature: record.sampler.temperature,
  }));

  // Score: π_old (the trainer's own numbers, so the ratio starts at exactly 1) and π_ref.
  const oldLogprobs = await policy.logprobsBatch(sequences);
  const referenceLogprobs = configuration.loss.klCoefficient > 0 ? await requireReference(reference).logprobsBatch(sequences) : undefined;
  const engineFlat = Float64Array.from(trained.flatMap((record) => record.logprobs));
  const oldFlat = concatenate(oldLogprobs);

  // Update: epochs × shuffled minibatches, one optimizer step each.
  const totals = { clipFraction: 0, gradientNorm: 0, kl: 0, entropy: 0, importance: 0, minibatches: 0, steps: 0, skippedSteps: 0 };
  const epochs = configuration.algorithm === "reinforce" ? 1 : configuration.epochs;
  const longest = Math.max(1, ...trained.map((record) => record.completionTokenIds.length));
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const minibatch of minibatches(trained.length, configuration.minibatchSize, options.random)) {
      const members = minibatch.map((index) => trained[index] as TrainingRecord);
      const lengths = members.map((record) => record.completionTokenIds.length);
      const weights = aggregationWeights(lengths, configuration.aggregation, configuration.aggregationLength ?? longest);
      const pick = (values: readonly Float64Array[]) => Float32Array.from(minibatch.flatMap((index) => Array.from(values[index] as Float64Array)));
      const constants = {
        oldLogprobs: tf.tensor1d(pick(oldLogprobs)),
        engineLogprobs: tf.tensor1d(minibatch.flatMap((index) => (trained[index] as TrainingRecord).logprobs)),
        advantages: tf.tensor1d(members.flatMap((record) => new Array<number>(record.completionTokenIds.length).fill(record.advantage))),
        weights: tf.tensor1d(weights),
        ...(referenceLogprobs && { referenceLogprobs: tf.tensor1d(pick(referenceLogprobs)) }),
      };
      const lossConfiguration = { ...configuration.loss, objective: configuration.algorithm === "reinforce" ? "reinforce" as const : "clipped" as const };
      let parts: { clipFraction: number; kl: number; importance: number } | undefined;
      const { value, grads } = tf.variableGrads(() => {
        const logprobs = policy.completionLogprobs(members.map((record) => sequenceOf(record)));
        const result = policyLoss({ ...constants, logprobs }, lossConfiguration);
        parts = { clipFraction: result.clipFraction.dataSync()[0] as number, kl: result.kl.dataSync()[0] as number, importance: result.importanceWeight.dataSync()[0] as number };
        return result.loss;
      }, policy.trainableVariables);
      const loss = value.dataSync()[0] as number;
      value.dispose();
      Object.values(constants).forEach((tensor) => tensor.dispose());
      const { gradients, norm } = clipGradientNorm(grads, configuration.maxGradientNorm);
      totals.minibatches++;
      if (!Number.isFinite(loss) || !Number.isFinite(norm)) {
        // A non-finite loss or gradient would poison every weight it touches: skip the step and count it.
        totals.skippedSteps++;
      } else {
        optimizer.applyGradients(variablesByName(policy), gradients);
        totals.steps++;
        totals.gradientNorm += norm;
      }
      Object.values(gradients).forEach((gradient) => gradient.dispose());
      totals.clipFraction += parts?.clipFraction ?? 0;
      totals.kl += parts?.kl ?? 0;
      totals.importance += parts?.importance ?? 0;
    }
  }

  const trainedTokens = engineFlat.length;
  return {
    reward: mean(trained.map((record) => record.reward)),
    klToReference: totals.kl / Math.max(totals.minibatches, 1),
    entropy: null,
    clipFraction: totals.clipFraction / Math.max(totals.minibatches, 1),
    gradientNorm: totals.gradientNorm / Math.max(totals.steps, 1),
    responseLength: trainedTokens / Math.max(trained.length, 1),
    zeroAdvantageGroups: zeroAdvantageGroupShare(trained),
    mismatchKl: mismatchKl(engineFlat, oldFlat),
    importanceWeight: totals.importance / Math.max(totals.minibatches, 1),
    trainedRecords: trained.length,
    trainedTokens,
    skippedRecords: skipped,
    optimizerSteps: totals.steps,
    skippedOptimizerSteps: totals.skippedSteps,
    elapsedMs: performance.now() - started,
  };
}

function sequenceOf(record: TrainingRecord): ScoredSequence {
  return { promptTokenIds: record.promptTokenIds, completionTokenIds: record.completionTokenIds, temperature: record.sampler.temperature };
}

/** The policy's trainable variables by their tfjs name, as the optimizer and `tf.variableGrads` key them. */
function variablesByName(policy: Policy): Record<string, tf.Variable> {
  return Object.fromEntries(policy.trainableVariables.map((variable) => [variable.name, variable]));
}

function requireReference(reference: Policy | undefined): Policy {
  if (!reference) throw new Error("trainOnBatch: loss.klCoefficient > 0 needs a reference policy");
  return reference;
}

/** Indices 0..count−1 shuffled (Fisher–Yates with `random`) and cut into chunks of `size`. */
function minibatches(count: number, size: number, random: () => number): number[][] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  const chunks: number[][] = [];
  for (let start = 0; start < count; start += size) chunks.push(order.slice(start, start + size));
  return chunks;
}

function concatenate(arrays: readonly Float64Array[]): Float64Array {
  const result = new Float64Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let offset = 0;
  for (const array of arrays) {
    result.set(array, offset);
    offset += array.length;
  }
  return result;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
