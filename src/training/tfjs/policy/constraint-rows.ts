import { InvalidInputError } from "../../../core/errors/index.js";
import { isTokenAllowed, maskedPositions, type ConstraintMasks } from "../../../inference/grammar/constraint-masks.js";

/** Per scored token, the engine's view of the vocabulary: which tokens it allowed and what it added to their logits. */
export interface ConstraintRows {
  /** `[scored tokens · vocabulary]`, row-major: 1 where the token was allowed (every token of an unconstrained sequence). */
  allowed: Uint8Array;
  /** `[scored tokens · vocabulary]`: the logit bias added before the temperature (0 where none). */
  bias: Float32Array;
}

/**
 * Lays out the masks of a pack's sequences row by row, in the order of its
 * scored tokens; unconstrained sequences allow every token. Undefined when no
 * sequence has masks, so unconstrained batches cost nothing extra.
 */
export function constraintRows(
  sequences: readonly { completionTokenIds: ArrayLike<number>; masks?: ConstraintMasks | undefined }[],
  vocabularySize: number,
): ConstraintRows | undefined {
  if (!sequences.some((sequence) => sequence.masks !== undefined)) return undefined;
  const scored = sequences.reduce((sum, sequence) => sum + sequence.completionTokenIds.length, 0);
  const allowed = new Uint8Array(scored * vocabularySize);
  const bias = new Float32Array(scored * vocabularySize);
  let row = 0;
  sequences.forEach(({ completionTokenIds: completion, masks }, index) => {
    if (masks === undefined) {
      allowed.fill(1, row * vocabularySize, (row + completion.length) * vocabularySize);
      row += completion.length;
      return;
    }
    checkMasks(masks, completion, vocabularySize, index);
    for (let position = 0; position < completion.length; position++, row++) {
      const offset = row * vocabularySize;
      for (let token = 0; token < vocabularySize; token++) allowed[offset + token] = isTokenAllowed(masks, position, token) ? 1 : 0;
      masks.logitBias.tokenIds.forEach((token, entry) => {
        bias[offset + token] = masks.logitBias.values[entry] as number;
      });
    }
  });
  return { allowed, bias };
}

function checkMasks(masks: ConstraintMasks, completion: ArrayLike<number>, vocabularySize: number, index: number): void {
  const field = `sequences[${index}].masks`;
  if (masks.vocabularySize !== vocabularySize) {
    throw new InvalidInputError(`${field}.vocabularySize`, `the policy's vocabulary size ${vocabularySize} (masks replayed on another model?)`, masks.vocabularySize);
  }
  if (masks.wordsPerPosition !== Math.ceil(vocabularySize / 32) || maskedPositions(masks) !== completion.length) {
    throw new InvalidInputError(`${field}.allowed`, `one bitset of ${Math.ceil(vocabularySize / 32)} words per completion token (${completion.length})`, masks.allowed.length);
  }
  for (let position = 0; position < completion.length; position++) {
    if (!isTokenAllowed(masks, position, completion[position] as number)) {
      throw new InvalidInputError(`${field}.allowed`, `masks that allow completion token ${position} (these are another completion's masks)`);
    }
  }
  masks.logitBias.tokenIds.forEach((token) => {
    if (!(token >= 0 && token < vocabularySize)) throw new InvalidInputError(`${field}.logitBias.tokenIds`, `token ids in [0, ${vocabularySize})`, token);
  });
}
