import * as tf from "@tensorflow/tfjs";
import { deriveStream, type RandomStream } from "../../../core/random/random-stream.js";
import { AdamW } from "../optimizer/adamw.js";
import { clipGradientNorm } from "../optimizer/clip-gradient-norm.js";
import type { Policy } from "../policy/policy.js";
import type { ScoredSequence } from "../policy/pack-sequences.js";
import { lastPretrainStep, learningRateAt, type PretrainConfiguration } from "./pretrain-configuration.js";

/** One logged pretraining step. */
export interface PretrainProgress {
  step: number;
  /** Mean negative log-likelihood per completion token. */
  loss: number;
  learningRate: number;
  gradientNorm: number;
  /** Prompt and completion tokens through forward and backward per second, this step. */
  tokensPerSecond: number;
}

export interface PretrainOptions {
  policy: Policy;
  configuration: PretrainConfiguration;
  /** One training example drawn from the corpus, e.g. the arithmetic task's `arithmeticExample`. */
  example: (random: RandomStream) => ScoredSequence;
  /** Called after every step (progress bars, metrics files, periodic evaluation). */
  onStep?: (progress: PretrainProgress) => void | Promise<void>;
  /** Step to start from (resuming keeps the learning-rate schedule and the example stream aligned). */
  firstStep?: number;
  optimizer?: AdamW;
}

/**
 * Supervised next-token training on a corpus of examples: minimise the
 * negative log-likelihood of each example's completion (answer or problem,
 * then end of sequence) given its prompt. Examples of step s come from the
 * stream `deriveStream(seed, "pretrain", s)`, so a resumed run sees what an
 * uninterrupted one would.
 */
export async function pretrain(options: PretrainOptions): Promise<AdamW> {
  const { policy, configuration } = options;
  const optimizer = options.optimizer ?? new AdamW({ learningRate: configuration.learningRate, beta1: 0.9, beta2: 0.98, epsilon: 1e-8, weightDecay: configuration.weightDecay });
  const variables = Object.fromEntries(policy.trainableVariables.map((variable) => [variable.name, variable]));
  for (let step = options.firstStep ?? 0; step < lastPretrainStep(configuration); step++) {
    const started = performance.now();
    const random = deriveStream(configuration.seed, "pretrain", String(step));
    const batch = Array.from({ length: configuration.batchSize }, () => options.example(random));
    const completionCount = batch.reduce((sum, example) => sum + example.completionTokenIds.length, 0);
    const { value, grads } = tf.variableGrads(() => tf.div(tf.neg(tf.sum(policy.completionLogprobs(batch))), completionCount) as tf.Scalar, policy.trainableVariables);
    const loss = (await value.data())[0] as number;
    value.dispose();
    const { gradients, norm } = clipGradientNorm(grads, configuration.maxGradientNorm);
    const learningRate = learningRateAt(step, configuration);
    if (Number.isFinite(loss) && Number.isFinite(norm)) {
      optimizer.configuration.learningRate = learningRate;
      optimizer.applyGradients(variables, gradients);
    }
    Object.values(gradients).forEach((gradient) => gradient.dispose());
    const tokens = batch.reduce((sum, example) => sum + example.promptTokenIds.length + example.completionTokenIds.length, 0);
    await options.onStep?.({ step, loss, learningRate, gradientNorm: norm, tokensPerSecond: tokens / ((performance.now() - started) / 1000) });
  }
  return optimizer;
}
