import { toErrorRecord } from "../../core/errors/index.js";
import type { EpisodeRequest } from "../../core/schemas/episode-request.js";
import type { FailureStage, GenerateResult } from "../../core/schemas/generate-result.js";
import { emptyStructuredOutputs } from "../../core/structured/structured-output-stats.js";
import type { EpisodePlacement } from "../episode-runner.js";

/**
 * The result of a request whose worker never returned one: shaped as
 * runEpisode shapes a failure, so pooled and in-process runs record it alike.
 */
export function failedResult(request: EpisodeRequest, placement: EpisodePlacement, stage: FailureStage, error: Error): GenerateResult {
  return {
    rollout: {
      id: placement.rolloutId,
      episodeType: request.episodeType,
      groupId: placement.groupId,
      artifact: request.artifact ?? null,
      steps: [],
      artifacts: {},
    },
    rewards: {},
    outcome: { status: "failed", stage, error: toErrorRecord(error) },
    scoreDetails: {},
    judgeCalls: 0,
    structuredOutputs: emptyStructuredOutputs(),
    children: [],
  };
}
