import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../core/errors/index.js";
import type { TrainingRecord } from "../../core/schemas/training-record.js";
import type { ConstraintMasks } from "../../inference/grammar/constraint-masks.js";
import { aggregationWeights } from "../update/aggregation-weights.js";
import { policyLoss } from "./losses/policy-loss.js";
import { clippedValueLoss } from "./losses/value-loss.js";
import type { AdamW } from "./optimizer/adamw.js";
import { clipGradientNorm } from "./optimizer/clip-gradient-norm.js";
import type { ScoredSequence } from "./policy/pack-sequences.js";
import type { Policy } from "./policy/policy.js";
import { episodeAdvantages } from "./value/episode-advantages.js";
import { normaliseAdvantages } from "./value/normalise-advantages.js";
import { scoreWithValues } from "./value/score-with-values.js";
import type { ValueHead } from "./value/value-head.js";
import { isTruncatedSampler } from "../update/is-truncated-sampler.js";
import { minibatches } from "../update/minibatches.js";
import { selectTrainableRecords } from "../update/select-trainable-records.js";
import type { TrainerConfiguration } from "../trainer/trainer-configuration.js";
import type { UpdateMetrics } from "../update/update-metrics.js";
import { skippedUpdate } from "../update/skipped-update.js";
import { completedUpdateMetrics, emptyUpdateTotals } from "../update/update-totals.js";

export interface TrainOnBatchOptions {
  policy: Policy;
  optimizer: AdamW;
  configuration: TrainerConfiguration;
  /** The frozen reference policy of the KL penalty; needed when `loss.klCoefficient` > 0. */
  reference?: Policy;
  /**
   * The critic of `ppo-critic` (`ValueHead.create({ embeddingLength: policy.configuration.embeddingLength })`),
   * kept by the caller across updates and stepped by the same optimizer. Needed for `ppo-critic` only.
   */
  valueHead?: ValueHead;
  /** Orders minibatches; seeded by the caller so a run replays exactly. */
  random: () => number;
  /**
   * The rebuilt grammar masks of constrained records (`replayConstraintMasks`):
   * those records are trained on the masked, biased log-softmax the engine
   * sampled from. Constrained records without masks are left out (counted).
   */
  constraintMasks?: ReadonlyMap<TrainingRecord, ConstraintMasks>;
}

/** Per trained record, one entry per completion token. */
interface Targets {
  advantages: Float64Array[];
  /** The value head's regression targets and the values they were computed with (`ppo-critic` only). */
  critic: { oldValues: Float64Array[]; returns: Float64Array[] } | undefined;
}

/**
 * One policy update on a batch of records: score the records with the
 * policy as it is (π_old, and V_old with a critic) and the reference, derive
 * the per-token advantages, then `epochs` passes of minibatch gradient steps.
 * Phases read top to bottom.
 */
export async function trainOnBatch(records: readonly TrainingRecord[], options: TrainOnBatchOptions): Promise<UpdateMetrics> {
  const started = performance.now();
  const { policy, optimizer, configuration, reference } = options;
  const zeroAdvantageIsInert = configuration.algorithm !== "ppo-critic" && configuration.loss.klCoefficient === 0 && configuration.loss.entropyCoefficient === 0;
  const { constraintMasks } = options;
  const selected = selectTrainableRecords(records, {
    dropZeroAdvantage: configuration.dropZeroAdvantage && zeroAdvantageIsInert,
    ...(constraintMasks !== undefined && { constraintMasks }),
    // completionOutputs scores a truncated Step under its own top-k / top-p / min-p.
    reproducesTruncation: true,
  });
  const trained = selected.records;
  const sequenceOf = (record: TrainingRecord): ScoredSequence => scoredSequenceOf(record, constraintMasks?.get(record));
  // Self-play can produce a batch with nothing to train on (every proposal invalid): a skipped update, logged and counted, not a failed run.
  if (trained.length === 0) return skippedUpdate(records, selected, started);
  const valueHead = configuration.algorithm === "ppo-critic" ? requireValueHead(options.valueHead) : undefined;
  const sequences = trained.map(sequenceOf);

  // Score: π_old (the trainer's own numbers, so the ratio starts at exactly 1), V_old with a critic, and π_ref.
  const scores = valueHead ? await scoreWithValues(policy, valueHead, sequences) : { logprobs: await policy.logprobsBatch(sequences), values: undefined };
  const oldLogprobs = scores.logprobs;
  const referenceLogprobs = configuration.loss.klCoefficient > 0 ? await requireReference(reference).logprobsBatch(sequences) : undefined;
  const engineFlat = Float64Array.from(trained.flatMap((record) => record.logprobs));

  // Credit: the records' own advantages on every token, or GAE over each role's episode from the value head.
  const targets = creditTargets(trained, scores.values, configuration);

  // Update: epochs × shuffled minibatches, one optimizer step each.
  const variables = [...policy.trainableVariables, ...(valueHead?.variables ?? [])];
  const variablesByName = Object.fromEntries(variables.map((variable) => [variable.name, variable]));
  const totals = emptyUpdateTotals();
  const epochs = configuration.algorithm === "reinforce" ? 1 : configuration.epochs;
  const longest = Math.max(1, ...trained.map((record) => record.completionTokenIds.length));
  const lossConfiguration = { ...configuration.loss, objective: configuration.algorithm === "reinforce" ? ("reinforce" as const) : ("clipped" as const) };
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const minibatch of minibatches(trained.length, configuration.minibatchSize, options.random)) {
      const members = minibatch.map((index) => trained[index] as TrainingRecord);
      const weights = aggregationWeights(members.map((record) => record.completionTokenIds.length), configuration.aggregation, configuration.aggregationLength ?? longest);
      const pick = (values: readonly Float64Array[]) => Float32Array.from(minibatch.flatMap((index) => Array.from(values[index] as Float64Array)));
      const constants = {
        oldLogprobs: tf.tensor1d(pick(oldLogprobs)),
        engineLogprobs: tf.tensor1d(members.flatMap((record) => record.logprobs)),
        advantages: tf.tensor1d(pick(targets.advantages)),
        weights: tf.tensor1d(weights),
        ...(referenceLogprobs && { referenceLogprobs: tf.tensor1d(pick(referenceLogprobs)) }),
      };
      const criticConstants = targets.critic && { oldValues: tf.tensor1d(pick(targets.critic.oldValues)), returns: tf.tensor1d(pick(targets.critic.returns)) };
      const parts = { clipFraction: 0, kl: 0, entropy: 0, importance: 0, valueLoss: 0 };
      const { value, grads } = tf.variableGrads(() => {
        const outputs = policy.completionOutputs(members.map(sequenceOf), { entropy: true, hiddenStates: valueHead !== undefined });
        const result = policyLoss({ ...constants, logprobs: outputs.logprobs, ...(outputs.entropy && { entropy: outputs.entropy }) }, lossConfiguration);
        parts.clipFraction = scalarOf(result.clipFraction);
        parts.kl = scalarOf(result.kl);
        parts.entropy = scalarOf(result.entropy);
        parts.importance = scalarOf(result.importanceWeight);
        if (!valueHead || !criticConstants || !outputs.hiddenStates) return result.loss;
        const { oldValues, returns } = criticConstants;
        const valueLoss = clippedValueLoss(valueHead.values(outputs.hiddenStates), oldValues, returns, constants.weights, configuration.critic.valueClip);
        parts.valueLoss = scalarOf(valueLoss);
        return tf.add(result.loss, tf.mul(valueLoss, configuration.critic.valueCoefficient)) as tf.Scalar;
      }, variables);
      const loss = scalarOf(value);
      value.dispose();
      [...Object.values(constants), ...Object.values(criticConstants ?? {})].forEach((tensor) => tensor.dispose());
      const { gradients, norm } = clipGradientNorm(grads, configuration.maxGradientNorm);
      totals.minibatches++;
      if (!Number.isFinite(loss) || !Number.isFinite(norm)) {
        // A non-finite loss or gradient would poison every weight it touches: skip the step and count it.
        totals.skippedSteps++;
      } else {
        optimizer.applyGradients(variablesByName, gradients);
        totals.steps++;
        totals.gradientNorm += norm;
      }
      Object.values(gradients).forEach((gradient) => gradient.dispose());
      totals.clipFraction += parts.clipFraction;
      totals.kl += parts.kl;
      totals.entropy += parts.entropy;
      totals.importance += parts.importance;
      totals.valueLoss += parts.valueLoss;
    }
  }

  return completedUpdateMetrics({ batch: records, trained, selected, engineLogprobs: engineFlat, oldLogprobs, totals, critic: valueHead !== undefined, started });
}

/** The advantage of every trained token, and with `ppo-critic` the value targets: GAE per episode, normalised over the batch. */
function creditTargets(trained: readonly TrainingRecord[], values: Float64Array[] | undefined, configuration: TrainerConfiguration): Targets {
  if (values === undefined) {
    return { advantages: trained.map((record) => new Float64Array(record.completionTokenIds.length).fill(record.advantage)), critic: undefined };
  }
  const { advantages, returns } = episodeAdvantages(trained, values, configuration.critic);
  return {
    advantages: configuration.critic.normaliseAdvantages ? normaliseAdvantages(advantages) : advantages,
    critic: { oldValues: values, returns },
  };
}

function scoredSequenceOf(record: TrainingRecord, masks: ConstraintMasks | undefined): ScoredSequence {
  return {
    promptTokenIds: record.promptTokenIds,
    completionTokenIds: record.completionTokenIds,
    temperature: record.sampler.temperature,
    ...(masks !== undefined && { masks }),
    ...(isTruncatedSampler(record.sampler) && { truncation: { topK: record.sampler.topK, topP: record.sampler.topP, minP: record.sampler.minP } }),
  };
}

function scalarOf(tensor: tf.Tensor): number {
  return tensor.dataSync()[0] as number;
}

function requireReference(reference: Policy | undefined): Policy {
  if (!reference) throw new InvalidInputError("reference", "a frozen reference Policy when loss.klCoefficient > 0");
  return reference;
}

function requireValueHead(valueHead: ValueHead | undefined): ValueHead {
  if (!valueHead) throw new InvalidInputError("valueHead", 'a ValueHead for algorithm "ppo-critic" (ValueHead.create({ embeddingLength }))');
  return valueHead;
}
