import { z } from "zod";
import { RiddleSchema, SolverAnswerSchema } from "./riddle-contracts.js";

export const SolverRunSchema = z.strictObject({
  solverId: z.string(),
  /** The instruction profile the actor gave this solver. */
  profile: z.string(),
  wave: z.int().min(0),
  /** Null when the solver's output did not parse. */
  answer: SolverAnswerSchema.nullable(),
  correct: z.boolean(),
  gradeNotes: z.string().default(""),
  askedPartner: z.boolean(),
  /** A short summary of the partner discussion, never its transcript. */
  partnerSummary: z.string().default(""),
});
export type SolverRun = z.infer<typeof SolverRunSchema>;

/**
 * Everything one riddle episode decided, as the rollout's artifacts: the
 * curriculum writes riddle.json, solver_runs.jsonl, critic_report.json,
 * summary.md and its metrics from it.
 */
export const RiddleEpisodeOutcomeSchema = z.strictObject({
  domain: z.enum(["arithmetic", "free-form"]),
  episodeIndex: z.int().min(0),
  /** Every riddle the riddler wrote this episode, in order; only the last can be valid. */
  attempts: z.array(z.strictObject({ riddle: RiddleSchema.nullable(), raw: z.string(), valid: z.boolean(), notes: z.string() })),
  /** The accepted riddle; null when the retry budget ran out (the episode is then a no-op). */
  riddle: RiddleSchema.nullable(),
  solverRuns: z.array(SolverRunSchema),
  solved: z.int().min(0),
  /** solved / solver runs; null without a valid riddle. */
  solveRate: z.number().min(0).max(1).nullable(),
  earlyStop: z.strictObject({ stopped: z.boolean(), side: z.enum(["below", "above"]).nullable(), afterSolvers: z.int().min(0) }),
  /** Solver calls the early stop saved (configured solvers − solvers run). */
  solverCallsSaved: z.int().min(0),
  partnersUsed: z.int().min(0),
  /** Highest similarity to a recent riddle, and whether it counts as a near-duplicate. */
  duplicate: z.strictObject({ similarity: z.number().min(0).max(1), nearDuplicate: z.boolean(), of: z.string().nullable() }),
  /** The riddler's reward (0 without a valid riddle; the Gaussian less any duplicate penalty otherwise). */
  riddlerReward: z.number(),
  /** The actor's periodic summaries (`statusEverySolvers`). */
  statusSummaries: z.array(z.string()),
  /** Completion tokens by role id. */
  tokensByRole: z.record(z.string(), z.int().min(0)),
});
export type RiddleEpisodeOutcome = z.infer<typeof RiddleEpisodeOutcomeSchema>;
