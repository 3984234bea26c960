import type { FrontierDecision } from "../../frontier/tracker/frontier-decision.js";
import type { ChallengeTier } from "../challenges/challenge-tier.js";
import type { SolveAttempt } from "../solver/solve-challenge.js";
import type { ChallengeSourceKind } from "../sources/route-challenge-source.js";

/** Where a cycle ended. */
export type DreamCycleStatus =
  /** The solver passed (on any attempt). */
  | "passed"
  /** Every attempt failed: recorded in the journal and the frontier. */
  | "failed"
  /** The validator broke on its own (or the setup failed): stopped after the attempt that showed it; not held against the solver. */
  | "aborted"
  /** The gates rejected every challenge the source offered: no solver ran. */
  | "no-challenge";

/** One line of cycles.jsonl. */
export interface DreamCycleRecord {
  cycle: number;
  startedAt: string;
  finishedAt: string;
  status: DreamCycleStatus;
  /** The frontier's pick and why. */
  frontier: Pick<FrontierDecision, "cluster" | "reason" | "fallback" | "saturated" | "message">;
  tier: ChallengeTier;
  source: ChallengeSourceKind;
  templateKey: string | null;
  /** The challenge played (its own cluster: a generated one may differ from the pick); null when none passed the gates. */
  challenge: { id: string; cluster: string; prompt: string } | null;
  /** Rejected tries before the challenge (or before giving up). */
  rejections: Array<{ kind: string; message: string }>;
  attempts: SolveAttempt[];
  abortedBy: "validator-internal" | "setup-failed" | null;
  /** True when the frontier had seen this challenge among the cluster's recent ones. */
  duplicate: boolean;
  /** Playbook lessons that were in the solver's prompt. */
  lessonsUsed: string[];
  /** What the lesson pipeline did: not tried, or its stop (`rejected:<kind>`, `dropped:<reason>`, `admitted`, `error:<message>`). */
  lesson: string;
  /** Lessons retired by this cycle's usage record. */
  retired: string[];
}
