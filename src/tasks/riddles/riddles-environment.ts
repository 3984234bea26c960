import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { RIDDLE_ROLE_IDS } from "../../riddles/domains/riddle-domain.js";
import { RIDDLE_EPISODE_TYPE } from "../../riddles/episode/riddle-episode.js";
import { riddleEpisodeModule } from "./riddle-episodes.js";
import { RIDDLE_SOLVE_EPISODE_TYPE } from "../../riddles/episode/riddle-solve-episode.js";
import { RiddleArtifactSchema } from "../../riddles/riddle-artifact.js";
import { parseRiddleConfig } from "../../riddles/riddle-config.js";
import type { Environment } from "../../environments/environment.js";
import { evaluateRiddles } from "./evaluate-riddles.js";
import { firstRiddleArtifact, nextRiddleArtifact } from "./next-riddle-artifact.js";
import { RiddlesEnvironmentOptionsSchema } from "./riddles-environment-options.js";
import { riddlesStepSummary } from "./riddles-step-summary.js";

/**
 * `selfplay train --env riddles`: the riddle curriculum as a training
 * environment, riddler and solvers trainable (the arithmetic domain on the
 * bundled base by default). Each step plays `episodesPerStep` riddle prompts
 * `groupSize` times each; the riddler is paid by the Gaussian of its riddle's
 * solve rate (less the near-duplicate penalty), each solver by correctness
 * (one GRPO group per riddle); rejected drafts sit under the untrainable
 * `riddler-rejected` role, left out of the batch. The curriculum state — the
 * episode counter, the recent accepted riddles the duplicate penalty compares
 * with, a short riddler-memory excerpt — is the one artifact of the store,
 * replaced after each step, so it is checkpointed with the arena and a
 * resumed run goes on from it. The evaluation is the riddler's band share on
 * held-out episodes. `frozenSolvers` serves the solvers from the base as it
 * was, so only the riddler learns.
 */
export function createRiddlesEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(RiddlesEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const { episodesPerStep, groupSize, temperature, evaluateEpisodes, evaluationSeed, frozenSolvers, contextSize, ...riddleConfig } = parsed;
  const config = parseRiddleConfig(riddleConfig, "environment");
  // Capacity 1: adding the next state evicts the last, so every draw is the current state.
  const store = ArtifactStore.of([firstRiddleArtifact()], { capacity: 1 });
  return {
    name: "riddles",
    ...(contextSize !== undefined && { contextSize }),
    episodes: riddleEpisodeModule(config),
    stores: { [RIDDLE_EPISODE_TYPE]: store },
    plan: [{ episodeType: RIDDLE_EPISODE_TYPE, count: episodesPerStep, ...(groupSize > 1 && { groupSize }) }],
    ...(frozenSolvers && { frozenRoles: { [RIDDLE_ROLE_IDS.solver]: "base", [RIDDLE_ROLE_IDS.partner]: "base" } }),
    samplerDefaults: { temperature },
    // The riddler is paid by its solvers' solve rate, not for anything its own prefixes show: only solvers are PRM trajectories.
    labelledEpisodeTypes: [RIDDLE_SOLVE_EPISODE_TYPE],
    evaluate: (client) => evaluateRiddles(client, { config, episodes: evaluateEpisodes, seed: evaluationSeed, temperature }),
    summarise: (results) => {
      // The loop's one look at a step's results before the next step's draw (and its checkpoint): the curriculum moves on here.
      // Read from the store, not a variable: a resumed run's arena restores the store from its checkpoint.
      const current = RiddleArtifactSchema.parse(store.snapshot().entries.at(-1)?.artifact ?? firstRiddleArtifact());
      store.add(nextRiddleArtifact(current, results, config) as unknown as JsonValue);
      return riddlesStepSummary(results, config);
    },
  };
}
