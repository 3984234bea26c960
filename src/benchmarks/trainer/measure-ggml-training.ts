import { GgmlTrainerUnavailableError } from "../../training/ggml/errors/index.js";
import { GgmlPolicy } from "../../training/ggml/ggml-policy.js";
import { AdamWConfigurationSchema } from "../../training/update/adamw-configuration.js";
import type { ScoredSequence } from "../../training/tfjs/policy/pack-sequences.js";

export interface GgmlTrainingOptions {
  modelPath: string;
  /** A LoRA adapter over the model: its factors train, the base stays frozen. Default: every weight trains (f32 models). */
  loraPath?: string;
  /** CPU threads of ggml's backend. */
  threads: number;
  /** The tokens trained on, in the model's vocabulary (`trainingTokens`); read in windows of `sequenceLength` tokens. */
  tokens: Int32Array;
  sequenceLength: number;
  sequencesPerStep: number;
  /** Timed optimizer steps after one untimed warm-up step. */
  steps: number;
  /** Compute each token's entropy too and backpropagate an entropy bonus through it, as RL updates with `entropyCoefficient` > 0 do. */
  entropy: boolean;
}

export interface GgmlTrainingMeasurement {
  backend: "ggml";
  threads: number;
  entropy: boolean;
  /** Predicted tokens per second of forward + backward + AdamW; null when the addon is not built (`reason`). */
  tokensPerSecond: number | null;
  reason?: string;
  /** Global L2 norm of the last timed step's gradient (the loss is the mean next-token cross-entropy, less the entropy bonus with `entropy`; nothing is clipped). */
  gradientNorm?: number;
  /** The process's peak resident memory when this measurement ended: every earlier one included (the first cell's is its own). */
  peakRssBytesSoFar?: number;
}

/**
 * Weight of the entropy bonus in the entropy-on steps (loss − c·mean entropy), a common RL setting; its size
 * changes the gradient, not the work: the entropy's backward runs whenever its derivative is passed.
 */
const ENTROPY_COEFFICIENT = 0.01;

/** Training window `index` of `tokens` as the trainer gets it: a one-token prompt and `sequenceLength` completion tokens to predict. */
export function trainingSequence(tokens: Int32Array, index: number, sequenceLength: number): ScoredSequence {
  const start = windowStart(tokens, index, sequenceLength);
  return { promptTokenIds: tokens.subarray(start, start + 1), completionTokenIds: tokens.subarray(start + 1, start + 1 + sequenceLength), temperature: 1 };
}

/**
 * The tokens the trainer's forward pass reads for training window `index`:
 * the prompt and all but the last completion token, `sequenceLength` in all.
 */
export function trainingRow(tokens: Int32Array, index: number, sequenceLength: number): Int32Array {
  const start = windowStart(tokens, index, sequenceLength);
  return tokens.subarray(start, start + sequenceLength);
}

/** Where training window `index` starts: windows of `sequenceLength` predicted tokens, repeating after the last whole one. */
function windowStart(tokens: Int32Array, index: number, sequenceLength: number): number {
  return (index % Math.floor((tokens.length - 1) / sequenceLength)) * sequenceLength;
}

/**
 * The supervised steps `measureTfjsTraining` times (next-token cross-entropy
 * over windows of the text, every weight trained, one AdamW step each), on
 * the ggml trainer: the loss's derivative is −1/N per predicted token (and,
 * with `entropy`, −c/N per token's entropy: an entropy bonus of weight c).
 */
export async function measureGgmlTraining(options: GgmlTrainingOptions): Promise<GgmlTrainingMeasurement> {
  let policy: GgmlPolicy;
  try {
    policy = await GgmlPolicy.load({ modelPath: options.modelPath, ...(options.loraPath !== undefined && { loraPath: options.loraPath }), trainable: true, threads: options.threads });
  } catch (error) {
    if (!(error instanceof GgmlTrainerUnavailableError)) throw error;
    return { backend: "ggml", threads: options.threads, entropy: options.entropy, tokensPerSecond: null, reason: error.message };
  }
  try {
    const optimizer = AdamWConfigurationSchema.parse({});
    const { tokens } = options;
    const predicted = options.sequencesPerStep * options.sequenceLength;
    const step = async (index: number) => {
      const sequences = Array.from({ length: options.sequencesPerStep }, (_, offset) => trainingSequence(tokens, index * options.sequencesPerStep + offset, options.sequenceLength));
      await policy.accumulateGradients(sequences, { entropy: options.entropy }, ({ logprobs, entropy }) => ({
        logprobs: new Float32Array(logprobs.length).fill(-1 / predicted),
        ...(entropy !== undefined && { entropy: new Float32Array(entropy.length).fill(-ENTROPY_COEFFICIENT / predicted) }),
      }));
      return (await policy.native.step({ ...optimizer, maxGradientNorm: 1e30, step: index + 1 })).gradientNorm;
    };
    await step(0);
    const started = performance.now();
    let gradientNorm = 0;
    for (let index = 1; index <= options.steps; index++) gradientNorm = await step(index);
    const seconds = (performance.now() - started) / 1000;
    const peakRssBytesSoFar = process.resourceUsage().maxRSS * 1024;
    return { backend: "ggml", threads: options.threads, entropy: options.entropy, tokensPerSecond: Number(((options.steps * predicted) / seconds).toPrecision(3)), gradientNorm, peakRssBytesSoFar };
  } finally {
    await policy.dispose();
  }
}
