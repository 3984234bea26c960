import { Arena } from "../../../src/arena/arena.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { ArithmeticProposerEpisode } from "../../../src/tasks/arithmetic/arithmetic-proposer-episode.js";
import { ArithmeticSolverEpisode } from "../../../src/tasks/arithmetic/arithmetic-solver-episode.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

/** One proposal of a scripted step: the cluster asked for, what the proposer writes, and its four solvers' replies. */
export interface ScriptedProposal {
  cluster: string;
  problem: string;
  solvers?: readonly [string, string, string, string];
}

/**
 * The results of a self-play step on the scripted environment: proposals run
 * one at a time, so each solver reply goes to the attempt it is listed for.
 */
export async function scriptedStepResults(proposals: readonly ScriptedProposal[]): Promise<GenerateResult[]> {
  let proposal = 0;
  let attempt = 0;
  const client = new ScriptedInferenceClient({
    rules: [
      { when: /user: propose /, reply: () => (proposals[proposal] as ScriptedProposal).problem },
      {
        when: /=$/,
        reply: () => {
          const reply = (proposals[proposal] as ScriptedProposal).solvers?.[attempt] ?? "";
          if (++attempt === 4) [attempt, proposal] = [0, proposal + 1];
          return reply;
        },
      },
    ],
  });
  const arena = new Arena({ client, seed: 5, concurrency: 1 }).register(new ArithmeticProposerEpisode()).register(new ArithmeticSolverEpisode());
  const results: GenerateResult[] = [];
  for (const { cluster, solvers } of proposals) {
    results.push(...(await arena.generateRollouts([{ episodeType: "arithmetic-propose", artifact: { cluster } }])));
    // An invalid proposal runs no solvers: the next proposal's replies come next.
    if (!solvers) proposal++;
  }
  return results;
}
