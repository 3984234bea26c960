import { z } from "zod";

/**
 * What a trainer needs to take the distribution a constrained Step was sampled
 * from: at every completion position the tokens llama.cpp's grammar sampler
 * allowed, and the logit bias added to the logits before the mask and the
 * temperature. Plain data (typed arrays), so any trainer backend can read it.
 */
export const ConstraintMasksSchema = z.object({
  /** Tokens the bitsets cover: the model's vocabulary. */
  vocabularySize: z.number().int().positive(),
  /** 32-bit words per position: ceil(vocabularySize / 32). */
  wordsPerPosition: z.number().int().positive(),
  /**
   * One bitset per completion token, position after position: bit `t % 32` of
   * word `position · wordsPerPosition + ⌊t / 32⌋` is set when token t was allowed.
   */
  allowed: z.instanceof(Uint32Array),
  /** Token ids the logit bias applies to (distinct), and the value added to each one's logit. */
  logitBias: z.object({ tokenIds: z.instanceof(Int32Array), values: z.instanceof(Float32Array) }),
});
export type ConstraintMasks = z.infer<typeof ConstraintMasksSchema>;

/** Completion positions the masks cover. */
export function maskedPositions(masks: ConstraintMasks): number {
  return masks.allowed.length / masks.wordsPerPosition;
}

/** Whether `tokenId` was allowed at completion position `position`. */
export function isTokenAllowed(masks: ConstraintMasks, position: number, tokenId: number): boolean {
  const word = masks.allowed[position * masks.wordsPerPosition + (tokenId >>> 5)] as number;
  return ((word >>> (tokenId & 31)) & 1) === 1;
}
