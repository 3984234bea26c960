import type { Challenge } from "../challenges/challenge.js";
import type { ChallengeSandbox } from "../challenges/challenge-sandbox.js";
import type { ChallengeWorkspaceOptions } from "../challenges/challenge-workspace.js";
import { runChallengeAttempt } from "../challenges/run-challenge-attempt.js";
import type { ValidatorRunKind } from "../gates/classify-validator-run.js";
import type { SolveOutcome } from "../lessons/solve-outcome.js";
import { attemptErrorSummary } from "./attempt-error-summary.js";
import type { DreamSolver } from "./dream-solver.js";
import { extractSolutionSource } from "./extract-solution-source.js";
import { solverPrompt } from "./solver-prompt.js";

/** Attempts a solver gets at one challenge (the seed's budget). */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** Options of `solveChallenge`. */
export interface SolveChallengeOptions {
  challenge: Challenge;
  solver: DreamSolver;
  sandbox: ChallengeSandbox;
  /** The cluster's playbook block, from a ReadonlyPlaybook ("" for none). */
  playbookBlock: string;
  /** Read-only journal excerpts shown to the solver. */
  journalExcerpts: readonly string[];
  /** The sampler seed of attempt 1; attempt k uses `attemptSeed(samplerSeed, k)`. */
  samplerSeed: number;
  /** Attempts at most, ≥ 1. Default 3. */
  maxAttempts?: number;
  workspace?: ChallengeWorkspaceOptions;
}

/** One attempt as the cycle records it. */
export interface SolveAttempt {
  solution: string;
  passed: boolean;
  /** Null on a pass. */
  errorSummary: string | null;
  /** The crash detector's kind; null when the validator did not run. */
  validatorKind: ValidatorRunKind | null;
  /** The isolation the solution's run had, as the sandbox recorded it (null when the setup failed first). */
  isolation: unknown;
}

/** How a solve went. */
export interface SolveResult {
  outcome: SolveOutcome;
  attempts: SolveAttempt[];
  /** Why the solve stopped before its budget: the validator broke on its own, or the setup failed. */
  abortedBy: "validator-internal" | "setup-failed" | null;
  winningSolution: string | null;
}

/** The sampler seed of attempt `attempt` (1-based): fixed by the solve's seed, different per attempt. */
export function attemptSeed(samplerSeed: number, attempt: number): number {
  return (samplerSeed + (attempt - 1) * 0x9e3779b1) >>> 0;
}

/**
 * The solver's attempts at a challenge, each run through runChallengeAttempt
 * in the sandbox; each failure's error summary is fed to the next attempt. A
 * validator-internal crash (or a broken setup) stops after the attempt that
 * showed it: further attempts would burn the budget on a challenge no
 * solution can pass.
 */
export async function solveChallenge(options: SolveChallengeOptions): Promise<SolveResult> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const attempts: SolveAttempt[] = [];
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const messages = solverPrompt({
      challengePrompt: options.challenge.prompt,
      outputFile: options.challenge.outputFile,
      playbookBlock: options.playbookBlock,
      journalExcerpts: options.journalExcerpts,
      previousErrors: attempts.map((previous) => previous.errorSummary ?? ""),
    });
    const solution = extractSolutionSource(await options.solver.write(messages, attemptSeed(options.samplerSeed, attempt)));
    const result = await runChallengeAttempt(options.challenge, solution, options.sandbox, options.workspace);
    const validatorKind = result.verdict?.kind ?? null;
    const isolation = result.solution?.isolation ?? null;
    if (result.passed) {
      attempts.push({ solution, passed: true, errorSummary: null, validatorKind, isolation });
      return { outcome: { passed: true, attemptsUsed: attempt }, attempts, abortedBy: null, winningSolution: solution };
    }
    attempts.push({ solution, passed: false, errorSummary: attemptErrorSummary(result), validatorKind, isolation });
    const abortedBy = result.stoppedAt === "setup" ? "setup-failed" : result.verdict?.abortsCycle ? "validator-internal" : null;
    if (abortedBy !== null) return { outcome: { passed: false, attemptsUsed: attempt }, attempts, abortedBy, winningSolution: null };
  }
  return { outcome: { passed: false, attemptsUsed: maxAttempts }, attempts, abortedBy: null, winningSolution: null };
}
