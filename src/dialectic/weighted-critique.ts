import { z } from "zod";
import { InvalidInputError } from "../core/errors/index.js";
import { CritiqueSchema, type Critique } from "./critique.js";

const AspectScore = z.number().min(0).max(1);

/** A critique scored aspect by aspect; its overall score is their weighted mean (`weightedScore`). */
export const WeightedCritiqueSchema = CritiqueSchema.omit({ score: true }).extend({
  scores: z.object({
    /** Is it right? */
    correctness: AspectScore,
    /** Does it cover the whole task? */
    completeness: AspectScore,
    /** Is it clear and well structured? */
    style: AspectScore,
    /** Does it avoid waste (time, memory, words)? */
    efficiency: AspectScore,
  }),
});
export type WeightedCritique = z.infer<typeof WeightedCritiqueSchema>;
export type AspectScores = WeightedCritique["scores"];

/** How much each aspect counts; weights ≥ 0, normalised by their sum, so they need not add up to 1. */
export const AspectWeightsSchema = z
  .object({
    correctness: z.number().min(0),
    completeness: z.number().min(0),
    style: z.number().min(0),
    efficiency: z.number().min(0),
  })
  .refine((weights) => Object.values(weights).some((weight) => weight > 0), "at least one weight above 0");
export type AspectWeights = z.infer<typeof AspectWeightsSchema>;

/** The specification's weights: correctness .4, completeness .3, style .2, efficiency .1. */
export const DEFAULT_ASPECT_WEIGHTS: AspectWeights = { correctness: 0.4, completeness: 0.3, style: 0.2, efficiency: 0.1 };

/** Σ weightₐ·scoreₐ / Σ weightₐ over the four aspects: a score in [0, 1]. */
export function weightedScore(scores: AspectScores, weights: AspectWeights = DEFAULT_ASPECT_WEIGHTS): number {
  const parsed = AspectWeightsSchema.safeParse(weights);
  if (!parsed.success) throw new InvalidInputError("weights", "four numbers ≥ 0, at least one above 0", weights);
  let total = 0;
  let weighted = 0;
  for (const aspect of ["correctness", "completeness", "style", "efficiency"] as const) {
    total += parsed.data[aspect];
    weighted += parsed.data[aspect] * scores[aspect];
  }
  return weighted / total;
}

/** The plain critique a weighted one amounts to: its aspects folded into one score. */
export function critiqueFromWeighted(critique: WeightedCritique, weights: AspectWeights = DEFAULT_ASPECT_WEIGHTS): Critique {
  const { scores, ...rest } = critique;
  return { ...rest, score: weightedScore(scores, weights) };
}
