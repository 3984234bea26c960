import type { RandomStream } from "../../core/random/random-stream.js";

/** How the actor sets one solver off: an instruction (free-form) and a sampling temperature (both domains). */
export interface SolverProfile {
  /** Short stable name, recorded in each SolverRun and in actor_memory.md. */
  name: string;
  /** Put in a free-form solver's prompt; the arithmetic base reads only `a±b=`, so there it is recorded, not sent. */
  instruction: string;
  /** Sampling temperature of the solver's calls: the one difference the arithmetic base can feel. */
  temperature: number;
}

/**
 * The actor's fixed instruction profiles. Deliberately diverse (styles,
 * decomposition, verification habits, temperatures) so N solvers are N
 * different attempts rather than N samples of one. An episode starts at a
 * seeded offset and cycles through the list.
 */
export const SOLVER_PROFILES: readonly SolverProfile[] = [
  { name: "literal", instruction: "Read every word literally; the answer is in the wording.", temperature: 0.7 },
  { name: "wordplay", instruction: "Look for puns, double meanings and hidden words.", temperature: 1 },
  { name: "decompose", instruction: "Split the riddle into clues; find what satisfies each, then all.", temperature: 0.7 },
  { name: "verify", instruction: "Propose an answer, then check it against every clue before replying.", temperature: 0.5 },
  { name: "contrarian", instruction: "Distrust the obvious answer; look for the twist.", temperature: 1.1 },
  { name: "careful", instruction: "Work slowly and exactly; prefer a precise answer.", temperature: 0.3 },
  { name: "analogy", instruction: "Recall similar riddles and what their answers had in common.", temperature: 0.9 },
  { name: "eliminate", instruction: "List candidate answers and eliminate those a clue rules out.", temperature: 0.8 },
];

/** The profiles of `count` solvers: the list cycled from a start drawn from `random`. */
export function assignSolverProfiles(count: number, random: RandomStream, profiles: readonly SolverProfile[] = SOLVER_PROFILES): SolverProfile[] {
  const start = random.integer(profiles.length);
  return Array.from({ length: count }, (_, index) => profiles[(start + index) % profiles.length] as SolverProfile);
}
