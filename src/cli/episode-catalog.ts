import type { Arena, BatchPlanEntry } from "../arena/arena.js";
import { ArtifactStore } from "../arena/artifact-store.js";
import { DEBATE_TOPICS, DebateEpisode } from "../examples/debate/debate-episode.js";
import { scriptedDebateRules } from "../examples/debate/scripted-debate.js";
import { ARITHMETIC_TOPICS, ProposerEpisode } from "../examples/proposer-solver/proposer-episode.js";
import { scriptedProposerSolverRules } from "../examples/proposer-solver/scripted-proposer-solver.js";
import { SolverEpisode } from "../examples/proposer-solver/solver-episode.js";
import type { ScriptedRule } from "../inference/scripted-inference-client.js";

/** An example `selfplay run` can play: how to register it, what to plan, and scripted players for dry runs. */
export interface CatalogEntry {
  description: string;
  register: (arena: Arena) => void;
  plan: Omit<BatchPlanEntry, "count">;
  scriptedRules: readonly ScriptedRule[];
}

export const EPISODE_CATALOG: Readonly<Record<string, CatalogEntry>> = {
  debate: {
    description: "two debaters alternate; an LLM judge names the winner (+1/−1)",
    register: (arena) => arena.register(new DebateEpisode(), ArtifactStore.of(DEBATE_TOPICS.map((topic) => ({ topic })))),
    plan: { episodeType: "debate" },
    scriptedRules: scriptedDebateRules,
  },
  "proposer-solver": {
    description: "a proposer writes a problem, 4 solver sub-episodes answer it; the proposer aims at a 50% pass rate",
    register: (arena) =>
      arena
        .register(new ProposerEpisode(), ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))))
        .register(new SolverEpisode()),
    plan: { episodeType: "propose" },
    scriptedRules: scriptedProposerSolverRules,
  },
};
