import { z } from "zod";
import { AggregateCritiqueSchema, MemberCritiqueSchema } from "./critic-ensemble.js";
import { OscillationPatternSchema } from "./detect-oscillation.js";
import { EscapeStrategySchema } from "./escape-strategy.js";

/** The record of one round: the proposal, how it was made, how it was judged, and what the engine did next. */
export const DialecticRoundSchema = z.object({
  /** From 1. */
  round: z.number().int().min(1),
  proposal: z.string(),
  /** The specification's exact-repeat hash (`proposalHash`). */
  proposalHash: z.string(),
  /** The proposer's sampling temperature this round. */
  temperature: z.number().min(0),
  /** Issues injected into the proposer's prompt this round; empty for none. */
  constraints: z.array(z.string()),
  /** The ensemble's verdict; with one critic, that critic's. */
  critique: AggregateCritiqueSchema,
  /** Each critic's own critique. */
  critics: z.array(MemberCritiqueSchema),
  /** Spread of the critics' scores (0 with one critic). */
  disagreement: z.number().min(0).max(1),
  /** The independent check's score of the proposal (a trainable critic is rewarded against it); null without one. */
  check: z.number().min(0).max(1).nullable(),
  /** The oscillation this round completed, or null. */
  pattern: OscillationPatternSchema.nullable(),
  /** The escape strategy the adaptive engine chose after this round, or null. */
  strategy: EscapeStrategySchema.nullable(),
});
export type DialecticRound = z.infer<typeof DialecticRoundSchema>;
