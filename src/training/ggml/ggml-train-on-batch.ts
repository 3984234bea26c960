import { InvalidInputError } from "../../core/errors/index.js";
import type { TrainingRecord } from "../../core/schemas/training-record.js";
import type { ConstraintMasks } from "../../inference/grammar/constraint-masks.js";
import { aggregationWeights } from "../update/aggregation-weights.js";
import type { ScoredSequence } from "../tfjs/policy/pack-sequences.js";
import { selectTrainableRecords } from "../update/select-trainable-records.js";
import { minibatches } from "../update/minibatches.js";
import type { TrainerConfiguration } from "../trainer/trainer-configuration.js";
import type { UpdateMetrics } from "../update/update-metrics.js";
import type { GgmlPolicy } from "./ggml-policy.js";
import { groupByPrompt } from "./group-by-prompt.js";
import { policyLossDerivatives } from "./policy-loss-derivatives.js";
import { skippedUpdate } from "../update/skipped-update.js";
import { completedUpdateMetrics, emptyUpdateTotals } from "../update/update-totals.js";

export interface GgmlTrainOnBatchOptions {
  policy: GgmlPolicy;
  configuration: TrainerConfiguration;
  /** The frozen reference of the KL penalty; needed when `loss.klCoefficient` > 0. */
  reference?: GgmlPolicy;
  /** AdamW's step count, advanced by each step taken (its bias corrections depend on it). */
  optimizer: { steps: number };
  /** Orders minibatches; seeded by the caller so a run replays exactly. */
  random: () => number;
  /** Constrained records' rebuilt grammar masks (`replayConstraintMasks`): those records train under the masked log-softmax; others stay left out. */
  constraintMasks?: ReadonlyMap<TrainingRecord, ConstraintMasks>;
}

/**
 * `trainOnBatch` on ggml: score the records with the policy as it is (π_old)
 * and the reference, then `epochs` passes of minibatches, one AdamW step each.
 * The first minibatch's π_old comes from its own training forward pass (the
 * same weights, so the same numbers; with one minibatch, the default, the
 * update makes no separate scoring pass at all).
 * The loss is `policyLoss`, taken per token by `policyLossDerivatives`; the
 * graph backpropagates its derivatives. Same selection, minibatch order,
 * skipping rules and metrics as the tfjs update. `ppo-critic` (a value head)
 * is not on ggml yet: GgmlTrainer refuses it when created.
 */
export async function ggmlTrainOnBatch(records: readonly TrainingRecord[], options: GgmlTrainOnBatchOptions): Promise<UpdateMetrics> {
  const started = performance.now();
  const { policy, configuration, reference, constraintMasks } = options;
  const zeroAdvantageIsInert = configuration.loss.klCoefficient === 0 && configuration.loss.entropyCoefficient === 0;
  const selected = selectTrainableRecords(records, {
    dropZeroAdvantage: configuration.dropZeroAdvantage && zeroAdvantageIsInert,
    ...(constraintMasks !== undefined && { constraintMasks }),
  });
  const trained = selected.records;
  const sequenceOf = (record: TrainingRecord): ScoredSequence => {
    const masks = constraintMasks?.get(record);
    return {
      promptTokenIds: record.promptTokenIds,
      completionTokenIds: record.completionTokenIds,
      temperature: record.sampler.temperature,
      ...(masks !== undefined && { masks }),
    };
  };
  if (trained.length === 0) return skippedUpdate(records, selected, started);
  const sequences = trained.map(sequenceOf);

  // Score: π_old (the trainer's own numbers) and π_ref. The first minibatch of the first epoch is
  // scored by its own training forward pass, at the same weights: only the other records need a pass
  // of their own before any step is taken. Epoch 0's order is drawn now; scoring draws no randomness.
  const epochs = configuration.algorithm === "reinforce" ? 1 : configuration.epochs;
  const firstEpoch = minibatches(trained.length, configuration.minibatchSize, options.random);
  const scoredByTraining = new Set(firstEpoch[0]);
  const oldLogprobs = await oldLogprobsOutside(policy, sequences, scoredByTraining);
  let referenceLogprobs: Float64Array[] | undefined;
  if (configuration.loss.klCoefficient > 0) {
    if (!reference) throw new InvalidInputError("reference", "a frozen reference GgmlPolicy when loss.klCoefficient > 0");
    referenceLogprobs = await reference.logprobsBatch(sequences);
  }
  const engineFlat = Float64Array.from(trained.flatMap((record) => record.logprobs));

  // Update: epochs × shuffled minibatches, one optimizer step each.
  const totals = emptyUpdateTotals();
  const longest = Math.max(1, ...trained.map((record) => record.completionTokenIds.length));
  const lossConfiguration = { ...configuration.loss, objective: configuration.algorithm === "reinforce" ? ("reinforce" as const) : ("clipped" as const) };
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const [position, drawn] of (epoch === 0 ? firstEpoch : minibatches(trained.length, configuration.minibatchSize, options.random)).entries()) {
      // The same records, those of one prompt side by side so that their forward pass shares it.
      const minibatch = groupByPrompt(drawn.map((index) => (trained[index] as TrainingRecord).promptTokenIds)).map((offset) => drawn[offset] as number);
      // π_old of this minibatch is what its forward pass computes (the ratio is then exactly 1).
      const scoresItself = epoch === 0 && position === 0;
      const members = minibatch.map((index) => trained[index] as TrainingRecord);
      const weights = aggregationWeights(members.map((record) => record.completionTokenIds.length), configuration.aggregation, configuration.aggregationLength ?? longest);
      const pick = (values: readonly Float64Array[]) => Float64Array.from(minibatch.flatMap((index) => Array.from(values[index] as Float64Array)));
      const constants = {
        oldLogprobs: scoresItself ? new Float64Array(weights.length) : pick(oldLogprobs),
        engineLogprobs: Float64Array.from(members.flatMap((record) => record.logprobs)),
        advantages: Float64Array.from(members.flatMap((record) => record.completionTokenIds.map(() => record.advantage))),
        weights,
        referenceLogprobs: referenceLogprobs && pick(referenceLogprobs),
      };
      const parts = { loss: 0, clipFraction: 0, kl: 0, entropy: 0, importance: 0 };
      const outputs = await policy.accumulateGradients(members.map(sequenceOf), { entropy: true }, ({ logprobs, entropy, firstTarget }) => {
        const end = firstTarget + logprobs.length;
        if (scoresItself) constants.oldLogprobs.set(logprobs, firstTarget);
        const result = policyLossDerivatives(
          {
            logprobs,
            entropy,
            oldLogprobs: constants.oldLogprobs.subarray(firstTarget, end),
            engineLogprobs: constants.engineLogprobs.subarray(firstTarget, end),
            advantages: constants.advantages.subarray(firstTarget, end),
            weights: constants.weights.subarray(firstTarget, end),
            referenceLogprobs: constants.referenceLogprobs?.subarray(firstTarget, end),
          },
          lossConfiguration,
        );
        parts.loss += result.loss;
        parts.clipFraction += result.clipFraction;
        parts.kl += result.kl;
        parts.entropy += result.entropy;
        parts.importance += result.importanceWeightSum;
        return { logprobs: result.logprobs, entropy: result.entropyGradients };
      });
      if (scoresItself) splitInto(oldLogprobs, minibatch, members, outputs.logprobs);
      totals.minibatches++;
      if (!Number.isFinite(parts.loss)) {
        // A non-finite loss would poison every weight it touches: skip the step and count it.
        policy.native.clearGradients();
        totals.skippedSteps++;
      } else {
        const { optimizer, maxGradientNorm } = configuration;
        const step = await policy.native.step({ ...optimizer, maxGradientNorm, step: options.optimizer.steps + 1 });
        if (step.applied) {
          options.optimizer.steps++;
          totals.steps++;
          totals.gradientNorm += step.gradientNorm;
        } else {
          totals.skippedSteps++;
        }
      }
      totals.clipFraction += parts.clipFraction;
      totals.kl += parts.kl;
      totals.entropy += parts.entropy;
      totals.importance += parts.importance / Math.max(weights.length, 1);
    }
  }

  return completedUpdateMetrics({ batch: records, trained, selected, engineLogprobs: engineFlat, oldLogprobs, totals, critic: false, started });
}

/** π_old of every record not in `exclude` by a forward pass; the excluded ones are filled in by their training pass. */
async function oldLogprobsOutside(policy: GgmlPolicy, sequences: readonly ScoredSequence[], exclude: ReadonlySet<number>): Promise<Float64Array[]> {
  const indices = sequences.map((_, index) => index).filter((index) => !exclude.has(index));
  const scored = indices.length === 0 ? [] : await policy.logprobsBatch(indices.map((index) => sequences[index] as ScoredSequence));
  const oldLogprobs: Float64Array[] = sequences.map(() => new Float64Array(0));
  indices.forEach((index, position) => (oldLogprobs[index] = scored[position] as Float64Array));
  return oldLogprobs;
}

/** Writes a minibatch's flat per-token values (members in minibatch order) into each record's own array. */
function splitInto(target: Float64Array[], minibatch: readonly number[], members: readonly TrainingRecord[], flat: Float32Array): void {
  let offset = 0;
  minibatch.forEach((index, position) => {
    const length = (members[position] as TrainingRecord).completionTokenIds.length;
    target[index] = Float64Array.from(flat.subarray(offset, offset + length));
    offset += length;
  });
}
