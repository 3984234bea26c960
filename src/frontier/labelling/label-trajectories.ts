import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerationRequest, InferenceClient } from "../../core/inference-client.js";
import { deriveStream } from "../../core/random/random-stream.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Step } from "../../core/schemas/step.js";
import type { Verifier } from "../../core/verifiers/verifier.js";
import { firstStop } from "../../inference/llama/first-stop.js";
import type { PrmExample } from "../prm/prm-state.js";
import { continuationScoringContext } from "./continuation-scoring-context.js";
import { continuedStep } from "./continued-step.js";
import { outcomeLabel } from "./outcome-label.js";
import type { PrmTrajectory } from "./prm-trajectory.js";
import { trajectoryPrefixes, type TrajectoryPrefix } from "./trajectory-prefixes.js";

export interface LabelTrajectoriesOptions {
  /**
   * Continuations rolled out per prefix. 0: every prefix is labelled with the
   * trajectory's own outcome (no model). K > 0: with the share of K
   * continuations sampled from it that succeed (Math-Shepherd's success
   * share); single-Step episodes only (`continuedStep`).
   */
  rollouts: number;
  /** Completion tokens per chunk (see `trajectoryPrefixes`). */
  chunk: number;
  /** The text of token ids, special tokens left out: the tokenizer of the model that wrote them. */
  detokenize: (tokenIds: readonly number[]) => string;
  /** Samples the continuations; required when `rollouts` > 0, and must accept `prefixTokenIds`. */
  client?: InferenceClient;
  /** Scores a continuation: the verifier of the trajectory's episode type (`LabelledEpisode.verifier`). */
  verifierFor?: (episodeType: string) => Verifier;
  /** Seed of the continuations' samplers (with the Step's own seed and the prefix). Default 0. */
  seed?: number;
  /** Continuations per `generate` call. Default: 8 × the client's parallel sequences. */
  batchSize?: number;
}

export interface LabelledTrajectories {
  /** One per partial solution, in trajectory order. */
  examples: PrmExample[];
  /** Continuations sampled and scored. */
  continuations: number;
}

/** A continuation to sample: which trajectory and prefix it belongs to, and the request. */
interface Continuation {
  trajectory: PrmTrajectory;
  step: Step;
  example: number;
  request: GenerationRequest;
}

/**
 * PRM examples from trajectories: one `{task, cluster, prefix, label}` per
 * partial solution, in trajectory order. The whole trajectory is labelled
 * with its outcome; a partial one with that outcome too, or, with `rollouts`
 * K > 0, with the mean outcome label of K continuations the client samples
 * after its tokens (same prompt and sampler as the Step, fresh seeds, the
 * Step's token budget), each the rollout with its completion replaced,
 * re-scored by the episode's own verifier.
 */
export async function labelTrajectories(trajectories: readonly PrmTrajectory[], options: LabelTrajectoriesOptions): Promise<LabelledTrajectories> {
  if (!Number.isInteger(options.rollouts) || options.rollouts < 0) throw new InvalidInputError("rollouts", "an integer ≥ 0 (continuations per prefix)", options.rollouts);
  const examples: PrmExample[] = [];
  const continuations: Continuation[] = [];
  for (const trajectory of trajectories) {
    for (const prefix of trajectoryPrefixes(trajectory.steps, options)) {
      examples.push({ task: trajectory.task, cluster: trajectory.cluster, prefix: prefix.text, label: trajectory.outcome });
      if (options.rollouts === 0 || prefix.terminal) continue;
      const step = continuedStep(trajectory);
      for (let index = 0; index < options.rollouts; index++) {
        continuations.push({ trajectory, step, example: examples.length - 1, request: continuationRequest(step, prefix, index, options.seed ?? 0) });
      }
    }
  }
  if (continuations.length === 0) return { examples, continuations: 0 };
  const client = continuationClient(options);
  const verifierFor = options.verifierFor;
  if (!verifierFor) throw new InvalidInputError("verifierFor", "the verifier of each episode type, to score continuations");
  const sums = new Map<number, number>();
  const batchSize = options.batchSize ?? 8 * client.capabilities.parallelSequences;
  for (let start = 0; start < continuations.length; start += batchSize) {
    const batch = continuations.slice(start, start + batchSize);
    const outputs = await client.generate(batch.map((continuation) => continuation.request));
    for (const [index, continuation] of batch.entries()) {
      const output = outputs[index];
      if (!output) throw new InvalidInputError("client.generate", `one output per request (${batch.length})`, outputs.length);
      const prefixTokens = continuation.request.prefixTokenIds ?? [];
      const decoded = options.detokenize([...prefixTokens, ...output.completionTokenIds]);
      const text = decoded.slice(0, firstStop(decoded, continuation.step.sampler.stop) ?? decoded.length);
      const label = await continuationLabel(continuation, text, verifierFor(continuation.trajectory.rollout.episodeType));
      sums.set(continuation.example, (sums.get(continuation.example) ?? 0) + label);
    }
  }
  for (const [example, sum] of sums) (examples[example] as PrmExample).label = sum / options.rollouts;
  return { examples, continuations: continuations.length };
}

function continuationRequest(step: Step, prefix: TrajectoryPrefix, index: number, seed: number): GenerationRequest {
  // Seeded by the Step's own sampler seed, the prefix and the continuation: independent of file paths and order.
  const random = deriveStream(seed, "prm-label", String(step.sampler.seed), String(prefix.tokens), String(index));
  return {
    messages: step.prompt,
    sampler: { ...step.sampler, seed: random.uint32(), maxTokens: step.sampler.maxTokens - prefix.tokens },
    constraint: null,
    prefixTokenIds: step.completionTokenIds.slice(0, prefix.tokens),
  };
}

function continuationClient(options: LabelTrajectoriesOptions): InferenceClient {
  const { client } = options;
  if (!client) throw new InvalidInputError("client", "a model to sample continuations on when rollouts > 0 (--model)");
  if (client.capabilities.prefixTokens !== true) {
    throw new InvalidInputError("client", "a client that continues completions from prefix tokens (capabilities.prefixTokens), e.g. LlamaInferenceClient");
  }
  return client;
}

/** The outcome label of the rollout with its one Step's completion replaced by `text`, scored by the episode's own verifier. */
async function continuationLabel({ trajectory, step }: Continuation, text: string, verifier: Verifier): Promise<number> {
  const rollout: Rollout = { ...trajectory.rollout, steps: [{ ...step, completion: [{ role: "assistant", content: text }] }] };
  const reward = (await verifier.score(rollout, continuationScoringContext(trajectory))).rewards[trajectory.roleId];
  if (reward === undefined || !Number.isFinite(reward)) {
    throw new InvalidInputError(`${trajectory.source}: continuation reward`, `a finite reward for ${trajectory.roleId} from the ${trajectory.rollout.episodeType} verifier`, reward);
  }
  return outcomeLabel(reward);
}
