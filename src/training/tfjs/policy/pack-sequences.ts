import { InvalidInputError } from "../../../core/errors/index.js";
import type { ConstraintMasks } from "../../../inference/grammar/constraint-masks.js";
import { constraintRows, type ConstraintRows } from "./constraint-rows.js";
import type { TruncationSettings } from "./truncation-survivors.js";

/** A prompt and the completion whose tokens are to be scored, with the temperature they were sampled at. */
export interface ScoredSequence {
  /** Tokens read before the completion; at least one (the first completion token is predicted from them). */
  promptTokenIds: ArrayLike<number>;
  /** The tokens to score. */
  completionTokenIds: ArrayLike<number>;
  /** Sampling temperature, > 0: logprobs are of softmax(logits / temperature). */
  temperature: number;
  /**
   * For a Step sampled under a grammar: the allowed tokens and logit bias at
   * every completion position (`NativeConstraintMasks.replay`). Its logprobs
   * are then of the masked softmax((logits + bias) / temperature), as the engine's.
   */
  masks?: ConstraintMasks;
  /**
   * The Step's top-k / top-p / min-p, when it was sampled with any: its
   * logprobs are then of the truncated, renormalised distribution, the
   * survivors chosen from the policy's own logits as llama.cpp chooses them
   * (`truncationSurvivors`).
   */
  truncation?: TruncationSettings;
}

/** Sequences laid out for one forward pass: rows of equal length, right-padded. */
export interface PackedSequences {
  batchSize: number;
  /** Tokens per row: the longest prompt + completion − 1 (a completion's last token is never read). */
  length: number;
  /** `[batchSize · length]`, row-major; padding after each sequence (causal attention never reads it). */
  tokenIds: Int32Array;
  /** For every completion token, sequence after sequence: the flat index `row · length + position` of the output predicting it. */
  predictingRows: Int32Array;
  /** Every completion token, sequence after sequence. */
  targetTokenIds: Int32Array;
  /** The temperature of every completion token. */
  temperatures: Float32Array;
  /** Completion tokens per sequence, to split the flat outputs again. */
  completionLengths: number[];
  /** Each scored token's allowed tokens and logit bias; undefined when no sequence is constrained. */
  constraints: ConstraintRows | undefined;
  /** Each scored token's truncation samplers (undefined where none); undefined when no sequence is truncated. */
  truncations: Array<TruncationSettings | undefined> | undefined;
}

/** Packs sequences into rows, checking every token id against the vocabulary. */
export function packSequences(sequences: readonly ScoredSequence[], vocabularySize: number, paddingTokenId = 0): PackedSequences {
  const inputLengths = sequences.map((sequence, index) => {
    const { promptTokenIds: prompt, completionTokenIds: completion, temperature } = sequence;
    if (prompt.length < 1) throw new InvalidInputError(`sequences[${index}].promptTokenIds`, "at least one token", prompt.length);
    if (!(temperature > 0) || !Number.isFinite(temperature)) {
      throw new InvalidInputError(`sequences[${index}].temperature`, "a finite number > 0 (greedy decoding has no logprobs to match)", temperature);
    }
    checkTokenIds(prompt, `sequences[${index}].promptTokenIds`, vocabularySize);
    checkTokenIds(completion, `sequences[${index}].completionTokenIds`, vocabularySize);
    return prompt.length + Math.max(completion.length - 1, 0);
  });
  const length = Math.max(1, ...inputLengths);
  const scored = sequences.reduce((sum, sequence) => sum + sequence.completionTokenIds.length, 0);
  const tokenIds = new Int32Array(sequences.length * length).fill(paddingTokenId);
  const predictingRows = new Int32Array(scored);
  const targetTokenIds = new Int32Array(scored);
  const temperatures = new Float32Array(scored);
  let next = 0;
  sequences.forEach(({ promptTokenIds: prompt, completionTokenIds: completion, temperature }, row) => {
    const start = row * length;
    for (let index = 0; index < prompt.length; index++) tokenIds[start + index] = prompt[index] as number;
    for (let index = 0; index < completion.length; index++) {
      if (index < completion.length - 1) tokenIds[start + prompt.length + index] = completion[index] as number;
      predictingRows[next] = start + prompt.length - 1 + index;
      targetTokenIds[next] = completion[index] as number;
      temperatures[next] = temperature;
      next++;
    }
  });
  return {
    batchSize: sequences.length,
    length,
    tokenIds,
    predictingRows,
    targetTokenIds,
    temperatures,
    completionLengths: sequences.map((sequence) => sequence.completionTokenIds.length),
    constraints: constraintRows(sequences, vocabularySize),
    truncations: sequences.some((sequence) => sequence.truncation !== undefined)
      ? sequences.flatMap((sequence) => Array.from({ length: sequence.completionTokenIds.length }, () => sequence.truncation))
      : undefined,
  };
}

function checkTokenIds(tokenIds: ArrayLike<number>, field: string, vocabularySize: number): void {
  for (let index = 0; index < tokenIds.length; index++) {
    const id = tokenIds[index] as number;
    if (!Number.isInteger(id) || id < 0 || id >= vocabularySize) {
      throw new InvalidInputError(`${field}[${index}]`, `a token id from 0 to ${vocabularySize - 1}`, id);
    }
  }
}
