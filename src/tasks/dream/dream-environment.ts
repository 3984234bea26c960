import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import { ChallengeClusterSchema, type ChallengeCluster } from "../../dream/challenges/challenge-cluster.js";
import { ChallengeTierSchema } from "../../dream/challenges/challenge-tier.js";
import type { Challenge } from "../../dream/challenges/challenge.js";
import { createChallengeSandbox } from "../../dream/challenges/create-challenge-sandbox.js";
import { runChallengeAttempt } from "../../dream/challenges/run-challenge-attempt.js";
import { extractSolutionSource } from "../../dream/solver/extract-solution-source.js";
import { CHALLENGE_TEMPLATES } from "../../dream/templates/challenge-templates.js";
import type { Environment, EnvironmentEvaluation } from "../../environments/environment.js";
import { DREAM_EPISODE_TYPE, dreamPrompt, type DreamArtifact } from "./dream-episode.js";
import { DreamSandboxSettingsSchema, dreamEpisodeModule } from "./dream-episodes.js";
import { renderDreamChallenges } from "./render-dream-challenges.js";
import { summariseDreamRun } from "./summarise-dream-run.js";

/** Every cluster some template renders, in the cluster enum's order. */
const TEMPLATE_CLUSTERS: readonly ChallengeCluster[] = ChallengeClusterSchema.options.filter((cluster) => CHALLENGE_TEMPLATES.some((template) => template.cluster === cluster));

/** The options of the `dream` environment. */
export const DreamEnvironmentOptionsSchema = z.strictObject({
  /** Challenges per step. Default 4. */
  prompts: z.int().min(1).default(4),
  /** Attempts per challenge: the GRPO group. Default 4. */
  groupSize: z.int().min(1).default(4),
  /** The clusters challenges are rendered in. Default every cluster with a template. */
  clusters: z.array(ChallengeClusterSchema).min(1).optional(),
  /** The tier every cluster renders at (size and hard-mode twist). Default `basic`. */
  tier: ChallengeTierSchema.default("basic"),
  /** A tier per cluster, over `tier` (e.g. `{"algorithms": "advanced"}`). Default none. */
  tiers: z.partialRecord(ChallengeClusterSchema, ChallengeTierSchema).default({}),
  /** Challenges rendered per cluster for training (the store the steps draw from). Default 16. */
  challengesPerCluster: z.int().min(1).default(16),
  /** Seed of the rendered challenges (the run's seed picks among them). Default 0. */
  challengeSeed: z.int().min(0).default(0),
  /** The "### SKILL PLAYBOOK:" block shown with every challenge. Default none. */
  playbookBlock: z.string().default(""),
  /** Completion tokens at most for a solution. Default 768 (the dream solver's). */
  maxTokens: z.int().min(1).default(768),
  /** Limits of each sandboxed program. Default 10 s, 256 MiB. */
  sandbox: DreamSandboxSettingsSchema.default({ timeoutMs: 10_000, memoryMb: 256 }),
  /** Held-out challenges per cluster per evaluation (greedy, one attempt each). Default 2. */
  evaluateChallengesPerCluster: z.int().min(0).default(2),
});
export type DreamEnvironmentOptions = z.input<typeof DreamEnvironmentOptionsSchema>;

/**
 * `selfplay train --env dream`: the dream cycle's solver, trained. Each step
 * draws `prompts` challenges rendered from the templates (seeded, per cluster
 * at its tier) and lets the solver Role attempt each `groupSize` times; an
 * attempt earns 1 when its program passes the challenge's validator in the
 * sandbox, else 0, so GRPO compares programs written for the same challenge.
 * A challenge that cannot grade leaves its attempts out (see
 * DreamAttemptVerifier). The clusters are the templates' clusters, for the
 * PRM-weighted frontier. The evaluation is the greedy pass rate on held-out
 * challenges rendered from a separate stream.
 */
export function createDreamEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(DreamEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const clusters = parsed.clusters ?? TEMPLATE_CLUSTERS;
  const tierOf = (cluster: ChallengeCluster) => parsed.tiers[cluster] ?? parsed.tier;
  const heldOut = renderDreamChallenges({ seed: parsed.challengeSeed, purpose: "held-out", clusters, tierOf, perCluster: parsed.evaluateChallengesPerCluster });
  const heldOutIds = new Set(heldOut.map((challenge) => challenge.id));
  // A training render that equals a held-out one (same template, same draws) is dropped: the evaluation stays unseen.
  const training = renderDreamChallenges({ seed: parsed.challengeSeed, purpose: "train", clusters, tierOf, perCluster: parsed.challengesPerCluster }).filter((challenge) => !heldOutIds.has(challenge.id));
  const artifacts: DreamArtifact[] = training.map((challenge) => ({ challenge, playbookBlock: parsed.playbookBlock }));
  return {
    name: DREAM_EPISODE_TYPE,
    episodes: dreamEpisodeModule({ maxTokens: parsed.maxTokens, sandbox: parsed.sandbox }),
    stores: { [DREAM_EPISODE_TYPE]: ArtifactStore.of(artifacts, { capacity: Math.max(artifacts.length, 1) }) },
    plan: [{ episodeType: DREAM_EPISODE_TYPE, count: parsed.prompts, groupSize: parsed.groupSize }],
    // A challenge prompt is ~500 tokens and an answer up to maxTokens: more than a small model's default context.
    contextSize: 2048,
    samplerDefaults: { maxTokens: parsed.maxTokens },
    clusters: {
      episodeType: DREAM_EPISODE_TYPE,
      names: clusters,
      of: (artifact) => ((artifact as { challenge: Challenge }).challenge.cluster),
      firstTask: (cluster) => `A ${tierOf(cluster as ChallengeCluster)} ${cluster} challenge: write a JavaScript program that reads the fixture files and writes the answer file.`,
    },
    evaluate: (client) => evaluateDream(client, heldOut, parsed),
    summarise: (results) => dreamStepSummary(results),
    summariseRun: summariseDreamRun,
  };
}

/** The step's attempts: graded and passed, the pass rate over the graded ones, and how many could not be graded (left out). */
export function dreamStepSummary(results: readonly GenerateResult[]): Record<string, number> {
  const dream = results.filter((result) => result.rollout.episodeType === DREAM_EPISODE_TYPE);
  const graded = dream.filter((result) => result.outcome.status === "scored");
  const ungradable = dream.filter((result) => result.outcome.status === "failed" && result.outcome.stage === "score" && result.outcome.error.name === "UngradableChallengeError").length;
  const passed = graded.filter((result) => (Object.values(result.rewards)[0] ?? 0) > 0).length;
  return { attempts: dream.length, graded: graded.length, passed, passRate: passed / Math.max(graded.length, 1), ungradable, failed: dream.length - graded.length - ungradable };
}

/** Greedy pass rate on the held-out challenges: one attempt each, a batch of the client's parallel sequences at a time. */
async function evaluateDream(client: InferenceClient, heldOut: readonly Challenge[], options: z.output<typeof DreamEnvironmentOptionsSchema>): Promise<EnvironmentEvaluation> {
  const sandbox = createChallengeSandbox(options.sandbox);
  let passed = 0;
  let graded = 0;
  const size = client.capabilities.parallelSequences;
  for (let start = 0; start < heldOut.length; start += size) {
    const batch = heldOut.slice(start, start + size);
    const replies = await greedyReplies(
      client,
      batch.map((challenge) => ({ messages: dreamPrompt({ challenge, playbookBlock: options.playbookBlock }), sampler: { ...DEFAULT_SAMPLER, temperature: 0, maxTokens: options.maxTokens, seed: 0 }, constraint: null })),
    );
    for (const [index, reply] of replies.entries()) {
      // The engine refused the prompt (longer than its context): not an attempt, so not counted in n.
      if (reply === null) continue;
      const challenge = batch[index] as Challenge;
      const result = await runChallengeAttempt(challenge, extractSolutionSource(reply), sandbox);
      // As in training, a challenge that cannot grade counts neither way.
      if (result.stoppedAt === "setup" || result.verdict?.abortsCycle) continue;
      graded++;
      if (result.passed) passed++;
    }
  }
  return { heldOutAccuracy: passed / Math.max(graded, 1), n: graded };
}

/**
 * The replies to a batch; null for a request the engine refuses as input (a
 * prompt longer than its context: the bundled base's is 256 tokens, a dream
 * prompt about 500), found by retrying the batch one request at a time.
 */
async function greedyReplies(client: InferenceClient, requests: Parameters<InferenceClient["generate"]>[0]): Promise<(string | null)[]> {
  try {
    return (await client.generate(requests)).map((output) => output.text);
  } catch (error) {
    if (!(error instanceof InvalidInputError && error.field === "messages")) throw error;
  }
  const replies: (string | null)[] = [];
  for (const request of requests) {
    try {
      replies.push((await client.generate([request]))[0]?.text ?? null);
    } catch (error) {
      if (!(error instanceof InvalidInputError && error.field === "messages")) throw error;
      replies.push(null);
    }
  }
  return replies;
}
