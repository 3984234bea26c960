import type { Episode } from "../../core/episodes/episode.js";
import type { FailureStage } from "../../core/schemas/generate-result.js";
import type { Verifier } from "../../core/verifiers/verifier.js";

/** Receives (rollout id, stage) as an episode moves through its lifecycle; ids of sub-episodes come too. */
export type StageReport = (rolloutId: string, stage: FailureStage) => void;

/**
 * The episode, reporting when a rollout enters `rollout`, `finalize` and
 * `score`: if its worker dies, the pool records the failure at that stage, as
 * runEpisode would. Everything else reads through to the episode itself.
 */
export function stageReportingEpisode(episode: Episode, report: StageReport): Episode {
  const verifier: Verifier = {
    score: (rollout, context) => {
      report(rollout.id, "score");
      return episode.verifier.score(rollout, context);
    },
  };
  const rollout: Episode["rollout"] = async (context, artifact) => {
    report(context.rolloutId, "rollout");
    const state = await episode.rollout(context, artifact);
    report(context.rolloutId, "finalize");
    return state;
  };
  return new Proxy(episode, {
    get(target, property) {
      if (property === "rollout") return rollout;
      if (property === "verifier") return verifier;
      const value: unknown = Reflect.get(target, property, target);
      // Bound to the episode itself, so methods keep their `this` (and private fields).
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
