import type { ChallengeAttemptResult } from "../challenges/run-challenge-attempt.js";
import { summariseError } from "../journal/summarise-error.js";

/**
 * What the solver is told about a failed attempt (and what the journal keeps):
 * the solution's own error when it crashed or was stopped, else the
 * validator's verdict and its error line.
 */
export function attemptErrorSummary(result: ChallengeAttemptResult): string {
  if (result.stoppedAt === "setup") return `the challenge's setup failed (exit ${result.setup.exitCode}): ${summariseError(result.setup.stderr)}`;
  const solution = result.solution;
  if (solution !== null && (solution.exitCode !== 0 || solution.status !== "ok")) {
    const why = solution.reason ?? `exit ${solution.exitCode}`;
    return summariseError(`solution stopped (${why})\n${solution.stderr}`);
  }
  if (result.output === null) return "the solution exited 0 but did not write the output file";
  const validator = result.validator;
  const detail = validator === null ? "" : summariseError(`${validator.stderr}\n${validator.stdout}`);
  return `the validator rejected the output: ${result.verdict?.explanation ?? "no verdict"}${detail ? ` | ${detail}` : ""}`.slice(0, 400);
}
