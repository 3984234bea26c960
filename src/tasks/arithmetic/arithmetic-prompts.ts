import type { Messages } from "../../core/schemas/message.js";

/**
 * The conversations of the arithmetic roles, kept short: a byte-level model
 * reads every prompt byte on every call and every training step.
 * Solver: `7+5=` → `12`. Proposer: a cluster name → a problem in it.
 */
export function solverMessages(problemText: string): Messages {
  return [{ role: "user", content: `${problemText}=` }];
}

export function proposerMessages(clusterName: string): Messages {
  return [{ role: "user", content: `propose ${clusterName}` }];
}
