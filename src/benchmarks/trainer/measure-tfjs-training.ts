import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../core/errors.js";
import { bytesToTokenIds } from "../../inference/byte-tokens.js";
import type { TfjsBackendName } from "../../training/tfjs/backend/select-backend.js";
import { AdamW } from "../../training/tfjs/optimizer/adamw.js";
import { AdamWConfigurationSchema } from "../../training/update/adamw-configuration.js";
import type { ScoredSequence } from "../../training/tfjs/policy/pack-sequences.js";
import { Policy } from "../../training/tfjs/policy/policy.js";

export interface TfjsTrainingOptions {
  modelPath: string;
  backend: TfjsBackendName;
  /** The text trained on, one token a byte; read in windows of `sequenceLength` tokens. */
  text: string;
  /** Tokens per sequence, every one of them predicted (the first from the one before the window). */
  sequenceLength: number;
  /** Sequences per optimizer step. */
  sequencesPerStep: number;
  /** Timed optimizer steps after one untimed warm-up step. */
  steps: number;
}

export interface TfjsTrainingMeasurement {
  backend: TfjsBackendName;
  /** Predicted tokens per second of forward + backward + AdamW; null when the backend does not start (`reason`). */
  tokensPerSecond: number | null;
  reason?: string;
}

/**
 * Supervised steps of the tfjs policy: next-token cross-entropy over windows
 * of the text, gradients of every weight, one AdamW step each — the work of
 * llama-finetune, in our trainer. A backend that does not start on this
 * machine is reported with the reason, not measured on another one.
 */
export async function measureTfjsTraining(options: TfjsTrainingOptions): Promise<TfjsTrainingMeasurement> {
  let policy: Policy;
  try {
    policy = await Policy.load({ modelPath: options.modelPath, backends: [options.backend] });
  } catch (error) {
    if (!(error instanceof InvalidInputError) || error.field !== "candidates") throw error;
    return { backend: options.backend, tokensPerSecond: null, reason: error.message };
  }
  const optimizer = new AdamW(AdamWConfigurationSchema.parse({}));
  try {
    const tokens = bytesToTokenIds(options.text);
    const windows = Math.floor((tokens.length - 1) / options.sequenceLength);
    const sequenceAt = (index: number): ScoredSequence => {
      const start = (index % windows) * options.sequenceLength;
      return {
        promptTokenIds: tokens.subarray(start, start + 1),
        completionTokenIds: tokens.subarray(start + 1, start + 1 + options.sequenceLength),
        temperature: 1,
      };
    };
    const variables = Object.fromEntries(policy.trainableVariables.map((variable) => [variable.name, variable]));
    const step = (index: number) => {
      const sequences = Array.from({ length: options.sequencesPerStep }, (_, offset) => sequenceAt(index * options.sequencesPerStep + offset));
      const { value, grads } = tf.variableGrads(() => tf.neg(tf.mean(policy.completionLogprobs(sequences))) as tf.Scalar, policy.trainableVariables);
      optimizer.applyGradients(variables, grads);
      // Reading the loss waits for the step to finish on asynchronous backends.
      value.dataSync();
      value.dispose();
      Object.values(grads).forEach((gradient) => gradient.dispose());
    };
    step(0);
    const started = performance.now();
    for (let index = 1; index <= options.steps; index++) step(index);
    const seconds = (performance.now() - started) / 1000;
    return { backend: options.backend, tokensPerSecond: Math.round((options.steps * options.sequencesPerStep * options.sequenceLength) / seconds) };
  } finally {
    optimizer.dispose();
    policy.dispose();
  }
}
