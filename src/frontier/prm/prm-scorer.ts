import type { PrmState } from "./prm-state.js";

/**
 * A process reward model: for each (task, prefix) state, the probability that
 * the solution it begins ends up correct. The FrontierTracker asks one for its
 * uncertainty about each cluster.
 */
export interface PrmScorer {
  /** One probability in [0, 1] per state, in order. */
  score(states: readonly PrmState[]): Promise<number[]>;
}
