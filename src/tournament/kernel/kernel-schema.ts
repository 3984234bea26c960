import { z } from "zod";
import { LEGALITY_RULES } from "./legality-rules.js";

const percent = (minimum: number) => z.int().min(minimum).max(100);

/**
 * Every number and switch a constitution decides. Shares are whole percents
 * and compared in integer arithmetic (`yes × 100 ≥ cast × percent`), so no
 * float ever decides a vote.
 */
export const KernelParamsSchema = z.strictObject({
  /** Rounds a proposal stays open; it is tallied at the end of its last round. */
  votingWindowRounds: z.int().min(1).max(50),
  /** Share of active citizens whose ballots a tally needs. */
  quorumPercent: percent(0),
  /** Share of cast ballots in favour that passes a spend. */
  spendApprovalPercent: percent(1),
  /** Share of cast ballots in favour that passes an amendment. */
  amendmentApprovalPercent: percent(1),
  /** A spend may ask for at most this share of the treasury when proposed. */
  maxSpendPercentOfTreasury: percent(1),
  /**
   * A spend may not bring its recipient's holdings — balance plus the spends
   * open for it plus this one — above this share of a fair share (the world's
   * funds over its citizens, rounded down). 100 = one fair share.
   */
  maxHoldingPercentOfFairShare: z.int().min(1).max(100_000),
  /** Proposals a citizen may have open at once. */
  maxOpenProposalsPerCitizen: z.int().min(1).max(20),
  /** Rounds an emergency lasts at most; it lapses at the end of its last round. */
  emergencyMaxRounds: z.int().min(1).max(50),
  /** Rounds after an emergency ends before another may be declared (0: at once). */
  emergencyCooldownRounds: z.int().min(0).max(50),
  /** Whether an exit during an emergency waits in a queue until no emergency is in force. */
  exitsQueuedDuringEmergency: z.boolean(),
  /** The parameters an amendment may change. */
  amendableParams: z.array(z.string()),
});
export type KernelParams = z.infer<typeof KernelParamsSchema>;
export type KernelParamName = keyof KernelParams;

/** Parameters an amendment may patch: everything but the list of what may be patched. */
export const PATCHABLE_PARAMS = Object.keys(KernelParamsSchema.shape).filter((name) => name !== "amendableParams") as Exclude<KernelParamName, "amendableParams">[];
export type PatchableParamName = (typeof PATCHABLE_PARAMS)[number];

export const ArticleSchema = z.strictObject({
  /** Cited by legality results and events, e.g. `"Art. 4"`. */
  id: z.string().min(1),
  title: z.string().min(1),
  text: z.string().min(1),
  /** The legality rules this article governs; each rule belongs to exactly one article. */
  rules: z.array(z.enum(LEGALITY_RULES)).min(1),
});
export type Article = z.infer<typeof ArticleSchema>;

export const KernelDocumentSchema = z.strictObject({
  /** Semantic version, e.g. `"0.1.0"`; transcripts and exploit records name it. */
  version: z.string().regex(/^\d+\.\d+\.\d+$/, "a version like \"0.1.0\" (quote it in YAML)"),
  /** What this version changed, for amendments. */
  amends: z.string().optional(),
  params: KernelParamsSchema,
  articles: z.array(ArticleSchema).min(1),
});
export type KernelDocument = z.infer<typeof KernelDocumentSchema>;
