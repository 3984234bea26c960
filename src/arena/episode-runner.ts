import type { CallModelOptions, EpisodeContext } from "../core/episodes/episode-context.js";
import type { Episode } from "../core/episodes/episode.js";
import { dropsRollout, InvalidInputError, InvalidRewardError, toErrorRecord } from "../core/errors/index.js";
import { RolloutAbortedError, UnknownRoleError } from "./errors/index.js";
import type { GenerationRequest, InferenceCapabilities } from "../core/inference-client.js";
import { deriveStream, type RandomStream } from "../core/random/random-stream.js";
import type { EpisodeRequest } from "../core/schemas/episode-request.js";
import type { FailureStage, GenerateResult, Rewards } from "../core/schemas/generate-result.js";
import type { Messages } from "../core/schemas/message.js";
import type { ModelResponse } from "../core/schemas/model-response.js";
import { SamplerSettingsSchema, type SamplerOverrides, type SamplerSettings } from "../core/schemas/sampler-settings.js";
import { StepSchema, type Step } from "../core/schemas/step.js";
import type { JudgeCallOptions, ScoringContext } from "../core/verifiers/verifier.js";
import type { EpisodeRegistry } from "./episode-registry.js";
import type { ModelGateway } from "./model-gateway.js";
import { parseInput } from "../core/parse-input.js";
import type { Constraint } from "../core/schemas/constraint.js";
import { jsonSchemaConstraint } from "../core/structured/json-schema-constraint.js";
import { sampleStructured } from "../core/structured/sample-structured.js";
import { emptyStructuredOutputs } from "../core/structured/structured-output-stats.js";

/** Attempts a schema-bound call gets when its options name none. */
const DEFAULT_STRUCTURED_ATTEMPTS = 4;

/** What running an episode needs from its arena. */
export interface EpisodeRuntime {
  readonly seed: number;
  readonly registry: EpisodeRegistry;
  readonly policy: ModelGateway;
  readonly policyCapabilities: InferenceCapabilities;
  readonly judge: ModelGateway;
  readonly judgeCapabilities: InferenceCapabilities;
  /** The judge is the policy's own client: no separate judge model, so no policy verdict to compare with it (`policyJudgeObject`). */
  readonly judgeIsPolicy: boolean;
  /** Roles served by a model of their own (a frozen opponent) instead of `policy`, by role id. */
  readonly roleModels?: ReadonlyMap<string, { gateway: ModelGateway; capabilities: InferenceCapabilities }>;
  readonly samplerDefaults: Omit<SamplerSettings, "seed">;
  readonly signal: AbortSignal | undefined;
}

/** Where a request sits in the run: its rollout id and its credit group. */
export interface EpisodePlacement {
  rolloutId: string;
  groupId: string;
}

/**
 * Runs one request through the episode lifecycle. Whatever an episode or its
 * verifier throws is caught and recorded in the result's outcome with the
 * stage it happened in (`dropped` for an error that drops its rollout by
 * design, else `failed`); it never rejects.
 */
export async function runEpisode(
  runtime: EpisodeRuntime,
  request: EpisodeRequest,
  placement: EpisodePlacement,
): Promise<GenerateResult> {
  const steps: Step[] = [];
  const children: GenerateResult[] = [];
  const result: GenerateResult = {
    rollout: {
      id: placement.rolloutId,
      episodeType: request.episodeType,
      groupId: placement.groupId,
      artifact: request.artifact ?? null,
      steps,
      artifacts: {},
    },
    rewards: {},
    outcome: { status: "scored" },
    scoreDetails: {},
    judgeCalls: 0,
    structuredOutputs: emptyStructuredOutputs(),
    children,
  };
  let stage: FailureStage = "artifact";
  try {
    if (runtime.signal?.aborted) throw new RolloutAbortedError(`rollout ${placement.rolloutId} was not started: the run was aborted`);
    const { episode } = runtime.registry.get(request.episodeType);
    const context = createContext(runtime, episode, placement.rolloutId, steps, result);
    const artifact = await episode.getArtifact(context, request.artifact);
    result.rollout.artifact = artifact;
    stage = "rollout";
    const state = await episode.rollout(context, artifact);
    stage = "finalize";
    result.rollout.artifacts = episode.finalize(state, artifact);
    stage = "score";
    const scoring: ScoringContext = {
      children,
      ...createJudge(runtime, deriveStream(runtime.seed, placement.rolloutId, "judge"), result),
      // Its own stream, so asking the policy too leaves the judge's draws as they were.
      ...(!runtime.judgeIsPolicy && {
        policyJudgeObject: createJudge(runtime, deriveStream(runtime.seed, placement.rolloutId, "policy-judge"), result, "policy").judgeObject,
      }),
    };
    const output = await episode.verifier.score(result.rollout, scoring);
    checkRewards(episode, steps, output.rewards, placement.rolloutId);
    result.rewards = output.rewards;
    result.scoreDetails = output.details ?? {};
  } catch (error) {
    result.rewards = {};
    // An environment's DroppedRolloutError is a decision, not a failure: its rollout is dropped with the error as its reason.
    result.outcome = dropsRollout(error) ? { status: "dropped", stage, reason: toErrorRecord(error) } : { status: "failed", stage, error: toErrorRecord(error) };
  }
  return result;
}

function createContext(
  runtime: EpisodeRuntime,
  episode: Episode,
  rolloutId: string,
  steps: Step[],
  result: GenerateResult,
): EpisodeContext {
  const { children } = result;
  const roleStreams = new Map<string, RandomStream>();
  let nextChild = 0;
  const callModel: EpisodeContext["callModel"] = async (roleId, messages, options) => {
      const role = episode.roles.find((candidate) => candidate.id === roleId);
      if (!role) throw new UnknownRoleError(roleId, episode.type, episode.roles.map((candidate) => candidate.id));
      let stream = roleStreams.get(roleId);
      if (!stream) {
        stream = deriveStream(runtime.seed, rolloutId, "role", roleId);
        roleStreams.set(roleId, stream);
      }
      const prompt: Messages =
        role.systemPrompt && messages[0]?.role !== "system"
          ? [{ role: "system", content: role.systemPrompt }, ...messages]
          : [...messages];
      const model = runtime.roleModels?.get(roleId) ?? { gateway: runtime.policy, capabilities: runtime.policyCapabilities };
      const request = buildRequest(runtime, model.capabilities, prompt, { ...role.sampler, ...options?.sampler }, stream.uint32(), options);
      const output = await model.gateway.generate(request);
      const step = StepSchema.parse({
        roleId,
        prompt,
        completion: [{ role: "assistant", content: output.text }],
        promptTokenIds: Array.from(output.promptTokenIds),
        completionTokenIds: Array.from(output.completionTokenIds),
        completionLogprobs: Array.from(output.completionLogprobs),
        sampler: request.sampler,
        constraint: request.constraint,
        constrained: output.constrained,
        finishReason: output.finishReason,
        policyVersion: output.policyVersion,
        ...(output.endpoint !== undefined && { endpoint: output.endpoint }),
      } satisfies Step);
      steps.push(step);
      return { text: output.text, finishReason: output.finishReason, step } satisfies ModelResponse;
  };
  return {
    rolloutId,
    signal: runtime.signal,
    random: (purpose) => deriveStream(runtime.seed, rolloutId, "purpose", purpose),
    callModel,
    callModelForObject: async (roleId, messages, schema, options = {}) => {
      const capabilities = runtime.roleModels?.get(roleId)?.capabilities ?? runtime.policyCapabilities;
      const constraint = capabilities.jsonSchema ? jsonSchemaConstraint(schema, options.logitBias) : undefined;
      const { value, sample, attempts } = await sampleStructured({
        schema,
        maxAttempts: options.maxAttempts ?? DEFAULT_STRUCTURED_ATTEMPTS,
        sample: () => callModel(roleId, messages, { ...(options.sampler && { sampler: options.sampler }), ...(constraint && { constraint }) }),
        ...(options.parse && { parse: options.parse }),
        onAttempt: (response, attempt, valid) => (response.step.structured = { attempt, valid }),
        stats: result.structuredOutputs.role,
      });
      return { value, response: sample, attempts };
    },
    ...createJudge(runtime, deriveStream(runtime.seed, rolloutId, "rollout-judge"), result),
    runSubEpisodes: async (requests) => {
      const placements = requests.map((request) => ({
        rolloutId: `${rolloutId}.${nextChild++}`,
        groupId: request.groupId ?? `${rolloutId}/${request.episodeType}`,
      }));
      // Reserve the children's slots now so they keep request order whatever finishes first.
      const first = children.length;
      children.length += requests.length;
      const results = await Promise.all(
        requests.map((request, index) => runEpisode(runtime, request, placements[index] as EpisodePlacement)),
      );
      results.forEach((child, index) => (children[first + index] = child));
      return results;
    },
  };

}

function buildRequest(
  runtime: EpisodeRuntime,
  capabilities: InferenceCapabilities,
  prompt: Messages,
  overrides: SamplerOverrides,
  seed: number,
  options: CallModelOptions | undefined,
): GenerationRequest {
  const constraint = options?.constraint ?? null;
  if (constraint?.kind === "json-schema" && !capabilities.jsonSchema) {
    throw new InvalidInputError("constraint.kind", "a constraint the inference client supports (it has no JSON-schema support)", constraint.kind);
  }
  if (constraint?.kind === "grammar" && !capabilities.grammars) {
    throw new InvalidInputError("constraint.kind", "a constraint the inference client supports (it has no grammar support)", constraint.kind);
  }
  return { messages: prompt, sampler: parseSampler({ ...runtime.samplerDefaults, ...overrides, seed }), constraint };
}

/**
 * Judge calls for a rollout: counted in `judgeCalls`, seeded from `stream`,
 * never Steps. Schema-bound ones count in `structuredOutputs.judge`. They go
 * to the judge model, or with `model: "policy"` to the policy (its verdict
 * beside a separate judge's).
 */
function createJudge(
  runtime: EpisodeRuntime,
  stream: RandomStream,
  result: GenerateResult,
  model: "judge" | "policy" = "judge",
): Pick<ScoringContext, "judge" | "judgeObject"> {
  const [gateway, capabilities] = model === "judge" ? [runtime.judge, runtime.judgeCapabilities] : [runtime.policy, runtime.policyCapabilities];
  const ask = async (messages: Messages, options: JudgeCallOptions | undefined, constraint: Constraint | null) => {
    result.judgeCalls++;
    const sampler = parseSampler({
      ...runtime.samplerDefaults,
      temperature: 0,
      maxTokens: 64,
      ...options?.sampler,
      seed: stream.uint32(),
    });
    return (await gateway.generate({ messages, sampler, constraint })).text;
  };
  return {
    judge: (messages, options) => ask(messages, options, null),
    judgeObject: async (messages, schema, options = {}) => {
      const constraint = capabilities.jsonSchema ? jsonSchemaConstraint(schema, options.logitBias) : null;
      const { value, sample, attempts } = await sampleStructured({
        schema,
        maxAttempts: options.maxAttempts ?? DEFAULT_STRUCTURED_ATTEMPTS,
        sample: async () => ({ text: await ask(messages, options, constraint) }),
        ...(options.parse && { parse: options.parse }),
        stats: result.structuredOutputs.judge,
      });
      return { value, text: sample.text, attempts };
    },
  };
}

function parseSampler(settings: SamplerSettings): SamplerSettings {
  return parseInput(SamplerSettingsSchema, settings, { fieldName: (path) => `sampler.${path.map(String).join(".")}` });
}

/** Every role that acted needs a finite reward, and no reward may name a role the episode lacks. */
function checkRewards(episode: Episode, steps: readonly Step[], rewards: Rewards, rolloutId: string): void {
  const declared = new Set(episode.roles.map((role) => role.id));
  for (const [roleId, reward] of Object.entries(rewards)) {
    if (!declared.has(roleId)) {
      throw new InvalidRewardError(`rollout ${rolloutId}: verifier rewarded "${roleId}", which episode "${episode.type}" does not declare`);
    }
    if (!Number.isFinite(reward)) {
      throw new InvalidRewardError(`rollout ${rolloutId}: verifier gave "${roleId}" the non-finite reward ${reward}`);
    }
  }
  for (const step of steps) {
    if (!(step.roleId in rewards)) {
      throw new InvalidRewardError(`rollout ${rolloutId}: role "${step.roleId}" has Steps but the verifier gave it no reward`);
    }
  }
}
