import { InvalidInputError } from "../../src/core/errors.js";
import type { NativeGgmlChunk } from "../../src/inference/native/native-ggml-policy.js";
import { constraintRows } from "../policy/constraint-rows.js";
import type { ScoredSequence } from "../policy/pack-sequences.js";

/** Consecutive sequences packed into one row; its targets are theirs, sequence after sequence. */
export interface GgmlChunkPlan {
  chunk: NativeGgmlChunk;
  /** Indices of the sequences in the row, ascending and consecutive. */
  members: number[];
}

/**
 * Packs sequences, in order, into rows of at most `maxChunkTokens` tokens (a
 * longer sequence gets a row of its own). Each sequence contributes its
 * prompt and all but its last completion token; the row before each
 * completion token scores it. Flat targets over all chunks are therefore in
 * input order. Token ids are checked against the vocabulary here, so the
 * native side never sees a bad one from us.
 */
export function packGgmlChunks(sequences: readonly ScoredSequence[], vocabularySize: number, maxChunkTokens: number): GgmlChunkPlan[] {
  const plans: GgmlChunkPlan[] = [];
  let members: number[] = [];
  let tokens = 0;
  const flush = () => {
    if (members.length > 0) plans.push({ chunk: buildChunk(sequences, members, vocabularySize), members });
    members = [];
    tokens = 0;
  };
  sequences.forEach((sequence, index) => {
    checkSequence(sequence, index, vocabularySize);
    const length = sequence.promptTokenIds.length + sequence.completionTokenIds.length - 1;
    if (tokens + length > maxChunkTokens) flush();
    members.push(index);
    tokens += length;
  });
  flush();
  return plans;
}

function checkSequence(sequence: ScoredSequence, index: number, vocabularySize: number): void {
  if (sequence.promptTokenIds.length === 0) throw new InvalidInputError(`sequences.${index}.promptTokenIds`, "at least one token");
  if (sequence.completionTokenIds.length === 0) throw new InvalidInputError(`sequences.${index}.completionTokenIds`, "at least one token");
  if (!(sequence.temperature > 0) || !Number.isFinite(sequence.temperature)) {
    throw new InvalidInputError(`sequences.${index}.temperature`, "a finite temperature > 0", sequence.temperature);
  }
  for (const [field, ids] of [["promptTokenIds", sequence.promptTokenIds], ["completionTokenIds", sequence.completionTokenIds]] as const) {
    for (let position = 0; position < ids.length; position++) {
      const id = ids[position] as number;
      if (!Number.isInteger(id) || id < 0 || id >= vocabularySize) {
        throw new InvalidInputError(`sequences.${index}.${field}.${position}`, `a token id in [0, ${vocabularySize})`, id);
      }
    }
  }
}

/**
 * What a disallowed token's logit gets added: far enough below any logit that
 * its probability is exactly 0, small enough that divided by any temperature
 * it stays finite (so p · z is 0, not NaN, in the entropy).
 */
const MASKED_OFFSET = -1e20;

function buildChunk(sequences: readonly ScoredSequence[], members: readonly number[], vocabularySize: number): NativeGgmlChunk {
  const chosen = members.map((index) => sequences[index] as ScoredSequence);
  const lengths = chosen.map((sequence) => sequence.promptTokenIds.length + sequence.completionTokenIds.length - 1);
  const targets = chosen.reduce((sum, sequence) => sum + sequence.completionTokenIds.length, 0);
  const chunk: NativeGgmlChunk = {
    tokens: new Int32Array(lengths.reduce((sum, length) => sum + length, 0)),
    sequenceLengths: Int32Array.from(lengths),
    targetRows: new Int32Array(targets),
    targetTokens: new Int32Array(targets),
    temperatures: new Float32Array(targets),
  };
  let row = 0;
  let target = 0;
  for (const sequence of chosen) {
    const prompt = sequence.promptTokenIds.length;
    const completion = sequence.completionTokenIds.length;
    for (let position = 0; position < prompt; position++) chunk.tokens[row + position] = sequence.promptTokenIds[position] as number;
    for (let position = 0; position < completion - 1; position++) chunk.tokens[row + prompt + position] = sequence.completionTokenIds[position] as number;
    for (let position = 0; position < completion; position++) {
      chunk.targetRows[target] = row + prompt - 1 + position;
      chunk.targetTokens[target] = sequence.completionTokenIds[position] as number;
      chunk.temperatures[target] = sequence.temperature;
      target++;
    }
    row += prompt + completion - 1;
  }
  // Constrained Steps: the engine's bias where the grammar allowed a token, the mask where it did not.
  const constraints = constraintRows(chosen, vocabularySize);
  if (constraints !== undefined) {
    chunk.logitOffsets = Float32Array.from(constraints.bias, (bias, index) => (constraints.allowed[index] === 1 ? bias : MASKED_OFFSET));
  }
  return chunk;
}
