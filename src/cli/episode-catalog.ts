import type { Arena, BatchPlanEntry } from "../arena/arena.js";
import { ArtifactStore } from "../arena/artifact-store.js";
import type { EpisodeModule } from "../arena/pool/episode-module.js";
import type { Episode } from "../core/episodes/episode.js";
import { DEBATE_TOPICS } from "../tasks/debate/debate-episode.js";
import { createDebateEpisodes, debateEpisodeModule } from "../tasks/debate/debate-episodes.js";
import { scriptedDebateRules } from "../tasks/debate/scripted-debate.js";
import { ARITHMETIC_TOPICS } from "../tasks/proposer-solver/proposer-episode.js";
import { createProposerSolverEpisodes, proposerSolverEpisodeModule } from "../tasks/proposer-solver/proposer-solver-episodes.js";
import { scriptedProposerSolverRules } from "../tasks/proposer-solver/scripted-proposer-solver.js";
import type { ScriptedRule } from "../inference/scripted-inference-client.js";

/** An example `selfplay run` can play: how to register it, where pool workers get it, what to plan, and scripted players for dry runs. */
export interface CatalogEntry {
  description: string;
  /** Registers the episodes (from the factory `episodeModule` names) with their artifact stores. */
  register: (arena: Arena) => void;
  /** The same episodes as an episode module, for a RolloutPool's workers. */
  episodeModule: () => EpisodeModule;
  plan: Omit<BatchPlanEntry, "count">;
  scriptedRules: readonly ScriptedRule[];
}

/** Registers every episode, each with its store if it has one. */
function registerAll(arena: Arena, episodes: readonly Episode[], stores: Readonly<Record<string, ArtifactStore>>): void {
  for (const episode of episodes) arena.register(episode, stores[episode.type]);
}

export const EPISODE_CATALOG: Readonly<Record<string, CatalogEntry>> = {
  debate: {
    description: "two debaters alternate; an LLM judge names the winner (+1/−1)",
    register: (arena) => registerAll(arena, createDebateEpisodes(), { debate: ArtifactStore.of(DEBATE_TOPICS.map((topic) => ({ topic }))) }),
    episodeModule: debateEpisodeModule,
    plan: { episodeType: "debate" },
    scriptedRules: scriptedDebateRules,
  },
  "proposer-solver": {
    description: "a proposer writes a problem, 4 solver sub-episodes answer it; the proposer aims at a 50% pass rate",
    register: (arena) => registerAll(arena, createProposerSolverEpisodes(), { propose: ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))) }),
    episodeModule: proposerSolverEpisodeModule,
    plan: { episodeType: "propose" },
    scriptedRules: scriptedProposerSolverRules,
  },
};
