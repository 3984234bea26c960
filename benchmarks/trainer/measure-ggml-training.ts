import { bytesToTokenIds } from "../../src/inference/byte-tokens.js";
import { GgmlTrainerUnavailableError } from "../../trainers/ggml/errors/index.js";
import { GgmlPolicy } from "../../trainers/ggml/ggml-policy.js";
import { AdamWConfigurationSchema } from "../../trainers/optimizer/adamw.js";
import type { ScoredSequence } from "../../trainers/policy/pack-sequences.js";

export interface GgmlTrainingOptions {
  modelPath: string;
  /** A LoRA adapter over the model: its factors train, the base stays frozen. Default: every weight trains (f32 models). */
  loraPath?: string;
  /** CPU threads of ggml's backend. */
  threads: number;
  /** The text trained on, one token a byte; read in windows of `sequenceLength` tokens. */
  text: string;
  sequenceLength: number;
  sequencesPerStep: number;
  /** Timed optimizer steps after one untimed warm-up step. */
  steps: number;
}

export interface GgmlTrainingMeasurement {
  backend: "ggml";
  threads: number;
  /** Predicted tokens per second of forward + backward + AdamW; null when the addon is not built (`reason`). */
  tokensPerSecond: number | null;
  reason?: string;
  /** Global L2 norm of the last timed step's gradient (the loss is the mean next-token cross-entropy; nothing is clipped). */
  gradientNorm?: number;
}

/**
 * The supervised steps `measureTfjsTraining` times (next-token cross-entropy
 * over windows of the text, every weight trained, one AdamW step each), on
 * the ggml trainer: the loss's derivative is −1/N per predicted token.
 */
export async function measureGgmlTraining(options: GgmlTrainingOptions): Promise<GgmlTrainingMeasurement> {
  let policy: GgmlPolicy;
  try {
    policy = await GgmlPolicy.load({ modelPath: options.modelPath, ...(options.loraPath !== undefined && { loraPath: options.loraPath }), trainable: true, threads: options.threads });
  } catch (error) {
    if (!(error instanceof GgmlTrainerUnavailableError)) throw error;
    return { backend: "ggml", threads: options.threads, tokensPerSecond: null, reason: error.message };
  }
  try {
    const optimizer = AdamWConfigurationSchema.parse({});
    const tokens = bytesToTokenIds(options.text);
    const windows = Math.floor((tokens.length - 1) / options.sequenceLength);
    const sequenceAt = (index: number): ScoredSequence => {
      const start = (index % windows) * options.sequenceLength;
      return { promptTokenIds: tokens.subarray(start, start + 1), completionTokenIds: tokens.subarray(start + 1, start + 1 + options.sequenceLength), temperature: 1 };
    };
    const predicted = options.sequencesPerStep * options.sequenceLength;
    const step = async (index: number) => {
      const sequences = Array.from({ length: options.sequencesPerStep }, (_, offset) => sequenceAt(index * options.sequencesPerStep + offset));
      await policy.accumulateGradients(sequences, { entropy: false }, ({ logprobs }) => ({ logprobs: new Float32Array(logprobs.length).fill(-1 / predicted) }));
      return (await policy.native.step({ ...optimizer, maxGradientNorm: 1e30, step: index + 1 })).gradientNorm;
    };
    await step(0);
    const started = performance.now();
    let gradientNorm = 0;
    for (let index = 1; index <= options.steps; index++) gradientNorm = await step(index);
    const seconds = (performance.now() - started) / 1000;
    return { backend: "ggml", threads: options.threads, tokensPerSecond: Number(((options.steps * predicted) / seconds).toPrecision(3)), gradientNorm };
  } finally {
    await policy.dispose();
  }
}
