import { emptyStructuredOutputs } from "../../src/core/structured/structured-output-stats.js";
import type { JsonObject, JsonValue } from "../../src/core/json.js";
import type { GenerateResult, Outcome, Rewards } from "../../src/core/schemas/generate-result.js";
import type { Messages } from "../../src/core/schemas/message.js";
import type { Rollout } from "../../src/core/schemas/rollout.js";
import type { Step } from "../../src/core/schemas/step.js";

/** A Step in which `roleId` answered with `completion` (one assistant message, one byte token per char). */
export function makeStep(roleId: string, completion: string | Messages, overrides: Partial<Step> = {}): Step {
  const messages: Messages = typeof completion === "string" ? [{ role: "assistant", content: completion }] : completion;
  const text = messages.map((message) => message.content).join("");
  const completionTokenIds = [...text].map((character) => character.charCodeAt(0));
  return {
    roleId,
    prompt: [{ role: "user", content: `prompt for ${roleId}` }],
    completion: messages,
    promptTokenIds: [1, 2, 3],
    completionTokenIds,
    completionLogprobs: completionTokenIds.map(() => -0.5),
    sampler: { temperature: 1, topK: 0, topP: 1, minP: 0, seed: 7, maxTokens: 256, stop: [] },
    constraint: null,
    constrained: false,
    finishReason: "stop",
    policyVersion: 0,
    ...overrides,
  };
}

export interface MakeRolloutOptions {
  id?: string;
  episodeType?: string;
  groupId?: string;
  artifact?: JsonValue;
  steps?: Step[];
  artifacts?: JsonObject;
}

/** A Rollout with sensible defaults for every field the test does not care about. */
export function makeRollout(options: MakeRolloutOptions = {}): Rollout {
  return {
    id: options.id ?? "ep0",
    episodeType: options.episodeType ?? "test",
    groupId: options.groupId ?? "g0",
    artifact: options.artifact ?? null,
    steps: options.steps ?? [],
    artifacts: options.artifacts ?? {},
  };
}

/** A scored GenerateResult with the given rewards. */
export function scoredResult(rollout: Rollout, rewards: Rewards): GenerateResult {
  return { rollout, rewards, outcome: { status: "scored" }, scoreDetails: {}, judgeCalls: 0, structuredOutputs: emptyStructuredOutputs(), children: [] };
}

/** A GenerateResult whose episode failed at `stage`; it carries no rewards. */
export function failedResult(rollout: Rollout, stage: Extract<Outcome, { status: "failed" }>["stage"] = "rollout"): GenerateResult {
  return {
    rollout,
    rewards: {},
    outcome: { status: "failed", stage, error: { name: "Error", message: "boom" } },
    scoreDetails: {},
    judgeCalls: 0,
    structuredOutputs: emptyStructuredOutputs(),
    children: [],
  };
}
