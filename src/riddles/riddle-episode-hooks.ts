import type { SolverRun } from "./riddle-outcome.js";

/** Where an episode stands, for progress bars and the actor's inbox. */
export interface RiddleProgress {
  episodeIndex: number;
  riddle: string;
  solversRun: number;
  solversPlanned: number;
  solvedSoFar: number;
  lastRun: SolverRun | null;
}

/**
 * Calls out of a running episode. They observe; nothing they do may change
 * the episode (the inbox answerer uses its own client and seed stream, so the
 * rollouts are identical with or without it).
 */
export interface RiddleEpisodeHooks {
  /** After each solver is graded (each wave's solvers when grading is not streamed). */
  onSolverGraded?: (progress: RiddleProgress) => void;
  /** Between two solvers: the curriculum answers the actor's inbox here. */
  betweenSolvers?: (progress: RiddleProgress) => Promise<void>;
}
