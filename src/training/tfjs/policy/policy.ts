import * as tf from "@tensorflow/tfjs";
import { z } from "zod";
import { parseInput } from "../../../core/parse-input.js";
import { GgufReader } from "../../../gguf/gguf-reader.js";
import { TfjsBackendNameSchema, selectBackend, type BackendSelection } from "../backend/select-backend.js";
import { checkWasmMemory, withWasmMemoryCheck } from "../backend/wasm-memory.js";
import { readLoraFactors } from "../lora/read-lora-factors.js";
import { completionOutputs, type CompletionOutputs, type CompletionOutputsOptions } from "./completion-outputs.js";
import { estimateForwardBytes } from "./estimate-forward-bytes.js";
import { loadPolicyWeights } from "./load-policy-weights.js";
import { packSequences, type ScoredSequence } from "./pack-sequences.js";
import { flatTokenOrder } from "./flat-token-order.js";
import { gatherRows } from "./gather-rows.js";
import { planBatches } from "./plan-batches.js";
import { planLengthBuckets } from "./plan-length-buckets.js";
import type { PolicyConfiguration } from "./policy-configuration.js";
import type { PolicyWeights } from "./policy-weights.js";
import { readPolicyConfiguration } from "./read-policy-configuration.js";
import { ropeRotation, ropeTables, type RopeTables } from "./rope-tables.js";

export const PolicyOptionsSchema = z.strictObject({
  /** GGUF model (llama or qwen2) in any type our reader dequantises: f32, f16, bf16, q4_0 … q8_0, q2_K … q6_K. */
  modelPath: z.string().min(1),
  /** A llama.cpp LoRA adapter over the model (checked by `validateLoraAdapter`); its factors become the trainable variables and the base is frozen. */
  loraPath: z.string().min(1).optional(),
  /** tfjs backends to try, best first. Default: tensorflow, wasm, cpu (see `selectBackend`). */
  backends: z.array(TfjsBackendNameSchema).min(1).optional(),
  /** Padded tokens (rows × longest row) per forward pass in `logprobsBatch`; bounds activation memory. Default 8192. */
  maxBatchTokens: z.number().int().min(1).default(8192),
});
export type PolicyOptions = z.input<typeof PolicyOptionsSchema>;

export interface CompletionLogprobsOptions {
  /** Whether gradients will be taken: it doubles the activation memory the wasm check reserves. Default true. */
  withGradients?: boolean;
}

export interface PolicyCompletionOutputsOptions extends CompletionLogprobsOptions, CompletionOutputsOptions {}

let loadedPolicies = 0;


/**
 * A llama or qwen2 model as tfjs variables, with a forward pass that agrees
 * with llama.cpp's f32 CPU path to ~1e-6 in logprob. Score sequences with
 * `logprobs`/`logprobsBatch`; train by taking gradients of a loss built on
 * `completionLogprobs` with respect to `trainableVariables`. Call `dispose()`
 * to free its memory.
 */
export class Policy {
  private rope: { tables: RopeTables; rotation: Float32Array };

  private constructor(
    readonly modelPath: string,
    readonly loraPath: string | undefined,
    readonly configuration: PolicyConfiguration,
    /** The tfjs backend it runs on, and why better ones were passed over. */
    readonly backend: BackendSelection,
    private readonly weights: PolicyWeights,
    /** Padded tokens per forward pass of the batched scorers (`logprobsBatch`, `planBatches`). */
    readonly maxBatchTokens: number,
  ) {
    this.rope = { tables: ropeTables(configuration, configuration.contextLength, weights.ropeFrequencyFactors), rotation: ropeRotation(configuration) };
  }

  static async load(options: PolicyOptions): Promise<Policy> {
    const { modelPath, loraPath, backends, maxBatchTokens } = parseInput(PolicyOptionsSchema, options);
    const backend = await selectBackend(backends === undefined ? {} : { candidates: backends });
    const reader = await GgufReader.open(modelPath);
    try {
      const configuration = readPolicyConfiguration(reader);
      const adapter = loraPath === undefined ? undefined : await readLoraFactors(loraPath, modelPath);
      const weightBytes =
        4 *
        (reader.tensors.reduce((sum, tensor) => sum + tensor.elementCount, 0) +
          [...(adapter?.values() ?? [])].reduce((sum, pair) => sum + pair.a.length + pair.b.length, 0));
      checkWasmMemory(`loading ${modelPath} as f32`, weightBytes);
      const weights = await withWasmMemoryCheck(`loading ${modelPath}`, () =>
        loadPolicyWeights({ reader, configuration, adapter, variablePrefix: `policy-${loadedPolicies++}/` }),
      );
      return new Policy(modelPath, loraPath, configuration, backend, weights, maxBatchTokens);
    } finally {
      await reader.close();
    }
  }

  /** Every variable by GGUF tensor name (`blk.0.attn_q.weight`; LoRA factors as `….lora_a`/`….lora_b`, in compute layout). */
  get variables(): ReadonlyMap<string, tf.Variable> {
    return this.weights.variables;
  }

  /** The variables a trainer updates: the LoRA factors when an adapter was loaded, else every weight. */
  get trainableVariables(): tf.Variable[] {
    return [...this.weights.variables.values()].filter((variable) => variable.trainable);
  }

  /** Number of values in all variables. */
  get parameterCount(): number {
    return [...this.weights.variables.values()].reduce((sum, variable) => sum + variable.size, 0);
  }

  /**
   * The logprob of every completion token of `sequences`, flat, sequence after
   * sequence: a tensor in the current tf scope, differentiable with respect to
   * `trainableVariables`. One forward pass; batch with `planBatches` when many.
   */
  completionLogprobs(sequences: readonly ScoredSequence[], options: CompletionLogprobsOptions = {}): tf.Tensor1D {
    return this.completionOutputs(sequences, options).logprobs;
  }

  /**
   * `completionLogprobs` with, when asked for, the entropy of softmax(logits / T)
   * at every completion token (for an entropy bonus and its log) and the final
   * hidden states after `output_norm` (for a value head). All outputs are
   * differentiable with respect to `trainableVariables`. Sequences of very
   * different lengths go through separate forward passes (`planLengthBuckets`)
   * instead of all being padded to the longest; the outputs are the same.
   */
  completionOutputs(sequences: readonly ScoredSequence[], options: PolicyCompletionOutputsOptions = {}): CompletionOutputs {
    // Checked as a whole first, so that errors name the caller's indices.
    packSequences(sequences, this.configuration.vocabularySize);
    const buckets = planLengthBuckets(sequences.map((sequence) => sequence.promptTokenIds.length + Math.max(sequence.completionTokenIds.length - 1, 0)));
    if (buckets.length <= 1) return this.passOutputs(sequences, options);
    const parts = buckets.map((bucket) => this.passOutputs(bucket.map((index) => sequences[index] as ScoredSequence), options));
    const order = tf.tensor1d(flatTokenOrder(buckets, sequences), "int32");
    const inInputOrder = (flat: tf.Tensor1D[]) => tf.reshape<tf.Rank.R1>(gatherRows(tf.reshape<tf.Rank.R2>(tf.concat(flat), [-1, 1]), order), [-1]);
    return {
      logprobs: inInputOrder(parts.map((part) => part.logprobs)),
      entropy: options.entropy === true ? inInputOrder(parts.map((part) => part.entropy as tf.Tensor1D)) : undefined,
      hiddenStates: options.hiddenStates === true ? gatherRows(tf.concat(parts.map((part) => part.hiddenStates as tf.Tensor2D)), order) : undefined,
    };
  }

  /** `completionOutputs` of sequences already checked, in one forward pass. */
  private passOutputs(sequences: readonly ScoredSequence[], options: PolicyCompletionOutputsOptions): CompletionOutputs {
    const packed = packSequences(sequences, this.configuration.vocabularySize);
    // Like llama.cpp, run past the training context when asked to: the rope tables grow.
    if (packed.length > this.rope.tables.positions) {
      this.rope = { ...this.rope, tables: ropeTables(this.configuration, packed.length, this.weights.ropeFrequencyFactors) };
    }
    const withGradients = options.withGradients ?? true;
    // The entropy keeps two more [tokens, vocabulary] tensors (the probabilities and their product with the logprobs).
    const entropyBytes = options.entropy === true ? 2 * 4 * packed.targetTokenIds.length * this.configuration.vocabularySize * (withGradients ? 2 : 1) : 0;
    checkWasmMemory(
      `a forward pass over ${packed.batchSize} × ${packed.length} tokens`,
      estimateForwardBytes(this.configuration, packed, withGradients) + entropyBytes,
    );
    return completionOutputs(this.weights, this.configuration, this.rope, packed, options);
  }

  /** Log-probabilities of `completionTokenIds` after `promptTokenIds` at `temperature`, as the engine records them. */
  async logprobs(promptTokenIds: ArrayLike<number>, completionTokenIds: ArrayLike<number>, temperature: number): Promise<Float64Array> {
    const [logprobs] = await this.logprobsBatch([{ promptTokenIds, completionTokenIds, temperature }]);
    return logprobs as Float64Array;
  }

  /** `logprobs` for many sequences, in forward passes of at most `maxBatchTokens` padded tokens; results in input order. */
  async logprobsBatch(sequences: readonly ScoredSequence[]): Promise<Float64Array[]> {
    const results: Float64Array[] = new Array<Float64Array>(sequences.length);
    for (const batch of planBatches(sequences, this.maxBatchTokens)) {
      const members = batch.map((index) => sequences[index] as ScoredSequence);
      const values = await withWasmMemoryCheck("scoring sequences", async () => {
        const tensor = tf.tidy(() => this.completionLogprobs(members, { withGradients: false }));
        try {
          return await tensor.data<"float32">();
        } finally {
          tensor.dispose();
        }
      });
      let offset = 0;
      batch.forEach((index, member) => {
        const count = (members[member] as ScoredSequence).completionTokenIds.length;
        results[index] = Float64Array.from(values.subarray(offset, offset + count));
        offset += count;
      });
    }
    return results;
  }

  dispose(): void {
    for (const variable of this.weights.variables.values()) variable.dispose();
  }
}
