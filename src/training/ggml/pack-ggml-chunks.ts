import { InvalidInputError } from "../../core/errors/index.js";
import type { NativeGgmlChunk } from "../../inference/native/native-ggml-policy.js";
import { constraintRows } from "../tfjs/policy/constraint-rows.js";
import type { ScoredSequence } from "../tfjs/policy/pack-sequences.js";

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
 * completion token scores it. Consecutive sequences of one row with the same
 * prompt share it: the prompt is packed once and each completion continues it
 * (`sequenceParents`), the exact same attention over fewer tokens — RL
 * batches hold groups of completions of one prompt. Flat targets over all
 * chunks are in input order. Token ids are checked against the vocabulary
 * here, so the native side never sees a bad one from us.
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
    const completion = sequence.completionTokenIds.length - 1;
    const full = sequence.promptTokenIds.length + completion;
    const shared = members.length > 0 && samePrompt(sequences[index - 1] as ScoredSequence, sequence) ? completion : full;
    if (tokens + shared > maxChunkTokens) flush();
    tokens += members.length === 0 ? full : shared;
    members.push(index);
  });
  flush();
  return plans;
}

function samePrompt(first: ScoredSequence, second: ScoredSequence): boolean {
  const [a, b] = [first.promptTokenIds, second.promptTokenIds];
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
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
  // Runs of consecutive members with one prompt; a run of one is a single sequence as before.
  const runs: ScoredSequence[][] = [];
  chosen.forEach((sequence, position) => {
    const run = runs[runs.length - 1];
    if (run !== undefined && position > 0 && samePrompt(chosen[position - 1] as ScoredSequence, sequence)) run.push(sequence);
    else runs.push([sequence]);
  });
  const tokens: number[] = [];
  const lengths: number[] = [];
  const parents: number[] = [];
  const targetRows: number[] = [];
  const targetTokens: number[] = [];
  const temperatures: number[] = [];
  const addSequence = (ids: ArrayLike<number>, from: number, to: number, parent: number) => {
    for (let position = from; position < to; position++) tokens.push(ids[position] as number);
    lengths.push(to - from);
    parents.push(parent);
  };
  const addTargets = (sequence: ScoredSequence, rowOf: (position: number) => number) => {
    for (let position = 0; position < sequence.completionTokenIds.length; position++) {
      targetRows.push(rowOf(position));
      targetTokens.push(sequence.completionTokenIds[position] as number);
      temperatures.push(sequence.temperature);
    }
  };
  for (const run of runs) {
    const prompt = (run[0] as ScoredSequence).promptTokenIds;
    if (run.length === 1) {
      // prompt + completion[0..n−2] as one sequence.
      const completion = (run[0] as ScoredSequence).completionTokenIds;
      const start = tokens.length;
      addSequence(prompt, 0, prompt.length, -1);
      for (let position = 0; position < completion.length - 1; position++) tokens.push(completion[position] as number);
      lengths[lengths.length - 1] = tokens.length - start;
      addTargets(run[0] as ScoredSequence, (position) => start + prompt.length - 1 + position);
      continue;
    }
    const promptSequence = lengths.length;
    const promptStart = tokens.length;
    addSequence(prompt, 0, prompt.length, -1);
    for (const sequence of run) {
      const completion = sequence.completionTokenIds;
      const start = tokens.length;
      // A one-token completion adds no row: the prompt's last row scores it.
      if (completion.length > 1) addSequence(completion, 0, completion.length - 1, promptSequence);
      addTargets(sequence, (position) => (position === 0 ? promptStart + prompt.length - 1 : start + position - 1));
    }
  }
  const chunk: NativeGgmlChunk = {
    tokens: Int32Array.from(tokens),
    sequenceLengths: Int32Array.from(lengths),
    ...(runs.some((run) => run.length > 1) && { sequenceParents: Int32Array.from(parents) }),
    targetRows: Int32Array.from(targetRows),
    targetTokens: Int32Array.from(targetTokens),
    temperatures: Float32Array.from(temperatures),
  };
  // Constrained Steps: the engine's bias where the grammar allowed a token, the mask where it did not.
  const constraints = constraintRows(chosen, vocabularySize);
  if (constraints !== undefined) {
    chunk.logitOffsets = Float32Array.from(constraints.bias, (bias, index) => (constraints.allowed[index] === 1 ? bias : MASKED_OFFSET));
  }
  return chunk;
}
