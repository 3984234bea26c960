import { fileURLToPath } from "node:url";
import { z } from "zod";
import { Arena } from "../../src/arena/arena.js";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import type { EpisodeContext } from "../../src/core/episodes/episode-context.js";
import { Episode } from "../../src/core/episodes/episode.js";
import type { JsonObject, JsonValue } from "../../src/core/json.js";
import { RoleSchema } from "../../src/core/schemas/role.js";
import type { Rollout } from "../../src/core/schemas/rollout.js";
import { ExactMatchVerifier } from "../../src/core/verifiers/exact-match-verifier.js";
import type { ScoringContext, Verifier, VerifierOutput } from "../../src/core/verifiers/verifier.js";
import type { GenerateResult } from "../../src/core/schemas/generate-result.js";
import type { Environment } from "../../src/environments/environment.js";
import { ScriptedInferenceClient } from "../../src/inference/scripted-inference-client.js";
import { QuestionEpisode, type Question } from "./echo-episode.js";

/** This module's path: `--env` and the episode module both name it (vitest compiles it when it is imported). */
export const LABELLING_ENVIRONMENT_MODULE = fileURLToPath(import.meta.url);

/** The questions of the `quiz` episode: a cluster per answer length. */
export const QUIZ: readonly Question[] = [
  { question: "2+2=", expected: "4" },
  { question: "5+5=", expected: "10" },
];

const QuestionSchema = z.object({ question: z.string(), expected: z.string() });

/**
 * Multi-turn: a frozen `coach` hints, the `answerer` answers, is asked
 * whether it is sure, and answers again; the second answer is checked.
 */
class RecheckEpisode extends Episode<Question, { hint: string }> {
  readonly type = "recheck";
  readonly roles = [RoleSchema.parse({ id: "coach", trainable: false }), RoleSchema.parse({ id: "answerer" })];
  readonly verifier: Verifier = new RecheckVerifier();
  protected readonly artifactSchema = QuestionSchema;

  async rollout(context: EpisodeContext, artifact: Question): Promise<{ hint: string }> {
    const hint = await context.callModel("coach", [{ role: "user", content: `Hint for ${artifact.question}` }]);
    const first = await context.callModel("answerer", [{ role: "user", content: artifact.question }]);
    await context.callModel("answerer", [
      { role: "user", content: artifact.question },
      { role: "assistant", content: first.text },
      { role: "user", content: "Sure?" },
    ]);
    return { hint: hint.text };
  }

  finalize(_state: { hint: string }, artifact: Question): JsonObject {
    return { expected: artifact.expected };
  }
}

class RecheckVerifier implements Verifier {
  private readonly exact = new ExactMatchVerifier({ roleId: "answerer" });

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    const { rewards } = await this.exact.score(rollout, context);
    return { rewards: { ...rewards, coach: 0 } };
  }
}

/** The episode module: `quiz` (one Step, exact match) and `recheck` (multi-turn). */
export function createLabellingEpisodes(): Episode[] {
  return [new QuestionEpisode("quiz") as Episode, new RecheckEpisode() as Episode];
}

/**
 * A small environment that is not arithmetic, for `selfplay prm label`:
 * `{"episodes": ["quiz"]}` (default) or with `"recheck"`; `"clustered":
 * true` clusters the quiz questions by the length of their answer.
 */
export function createEnvironment(options?: JsonValue): Environment {
  const parsed = z.strictObject({ episodes: z.array(z.enum(["quiz", "recheck"])).default(["quiz"]), clustered: z.boolean().default(false) }).parse(options ?? {});
  return {
    name: "labelling-test",
    episodes: { module: LABELLING_ENVIRONMENT_MODULE, exportName: "createLabellingEpisodes" },
    stores: Object.fromEntries(parsed.episodes.map((type) => [type, ArtifactStore.of([...QUIZ])])),
    plan: parsed.episodes.map((episodeType) => ({ episodeType, count: 2 })),
    ...(parsed.clustered && {
      clusters: { episodeType: "quiz", names: ["one-digit", "two-digit"], of: (artifact: JsonValue) => ((artifact as Question).expected.length === 1 ? "one-digit" : "two-digit") },
    }),
  };
}

/**
 * Results of the labelling test environment's episodes on a scripted client,
 * one request at a time: each prompt's replies are taken in order.
 */
export async function scriptedLabellingResults(requests: readonly { episodeType: "quiz" | "recheck"; question: Question }[], replies: Record<string, string[]>): Promise<GenerateResult[]> {
  const next = (key: string) => {
    const reply = replies[key]?.shift();
    if (reply === undefined) throw new Error(`no reply scripted for ${key}`);
    return reply;
  };
  const client = new ScriptedInferenceClient({
    rules: [
      { when: /Hint for/, reply: () => "think" },
      { when: /Sure\?$/, reply: () => next("sure") },
      { when: /user: (\d\+\d=)$/, reply: (request) => next(request.messages.at(-1)?.content ?? "") },
    ],
  });
  const arena = new Arena({ client, seed: 2, concurrency: 1 });
  for (const episode of createLabellingEpisodes()) arena.register(episode);
  return arena.generateRollouts(requests.map(({ episodeType, question }) => ({ episodeType, artifact: question })));
}
