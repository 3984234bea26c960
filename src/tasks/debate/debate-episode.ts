import { z } from "zod";
import { AlternatingRolesEpisode, type AlternatingRolesState } from "../../core/episodes/alternating-roles-episode.js";
import type { JsonObject } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import { formatTranscript } from "../../core/verifiers/transcript.js";
import { JudgeLabelsSchema, JudgeOrdersSchema, ZeroSumJudgeVerifier } from "../../core/verifiers/zero-sum-judge-verifier.js";

const DebateArtifactSchema = z.object({ topic: z.string().min(1) });
export type DebateArtifact = z.infer<typeof DebateArtifactSchema>;

/** Each side's stance on the motion, as its system prompt and the judge's are told. */
const STANCES = { aff: "for", neg: "against" } as const;
type Side = keyof typeof STANCES;

export const DebateEpisodeOptionsSchema = z.strictObject({
  /** Rounds of one affirmative and one negative turn each. Default 2. */
  rounds: z.number().int().min(1).default(2),
  /** Judge verdicts that may fail to validate before the debate counts as failed. Default 3. */
  judgeAttempts: z.number().int().min(1).default(3),
  /** Tokens per debater turn. Default 64. */
  maxTokens: z.number().int().min(1).default(64),
  /** The judge's temperature: 0 (default) a greedy verdict; above 0 a verdict drawn with the debate's judge seed. */
  judgeTemperature: z.number().min(0).default(0),
  /** `"both"` (default): each verdict asked with the sides in both orders, a flip a tie (0 to each); twice the judge calls. `"one"`: asked once, `aff` first. */
  judgeOrders: JudgeOrdersSchema.default("both"),
  /** `"positions"` (default): the judge calls the side shown first `A` and the other `B`, so a judge that favours a label is tied by the swap. `"roles"`: it calls them `aff` and `neg`. */
  judgeLabels: JudgeLabelsSchema.default("positions"),
  /** With a separate judge model, also ask the policy for the verdict and record whether it agrees (details `judgeAgreement`). Default true. */
  policyAsJudge: z.boolean().default(true),
});
export type DebateEpisodeOptions = z.input<typeof DebateEpisodeOptionsSchema>;

/**
 * Two debaters, `aff` (for the motion) and `neg` (against), alternate; an LLM
 * judge, who is not a Role, is told the motion and the sides' stances, reads
 * the transcript and names the winner through strict JSON (an enum of the two
 * labels, `A` for the side shown first and `B` for the other, mapped back to
 * the role): +1 to the winner, −1 to the loser. The judge is asked with the
 * sides in both orders: a verdict that flips, by position or by label, is a
 * tie, 0 to each.
 */
export class DebateEpisode extends AlternatingRolesEpisode<DebateArtifact> {
  readonly type = "debate";
  readonly roles: readonly Role[];
  readonly verifier: ZeroSumJudgeVerifier;
  protected readonly artifactSchema = DebateArtifactSchema;
  protected readonly turnOrder = ["aff", "neg"] as const;
  protected readonly maxTurns: number;

  constructor(options: DebateEpisodeOptions = {}) {
    super();
    const parsed = parseInput(DebateEpisodeOptionsSchema, options);
    this.verifier = new ZeroSumJudgeVerifier({
      roleA: "aff",
      roleB: "neg",
      prompt: judgePrompt,
      orders: parsed.judgeOrders,
      labels: parsed.judgeLabels,
      compareWithPolicy: parsed.policyAsJudge,
      maxAttempts: parsed.judgeAttempts,
      sampler: { temperature: parsed.judgeTemperature },
    });
    this.maxTurns = parsed.rounds * 2;
    const sampler = { maxTokens: parsed.maxTokens };
    this.roles = this.turnOrder.map((id) => RoleSchema.parse({ id, systemPrompt: `You argue ${STANCES[id].toUpperCase()} the motion. Be brief and concrete.`, sampler }));
  }

  protected openingPrompt(artifact: DebateArtifact): string {
    return `Motion: ${artifact.topic}`;
  }

  finalize(state: AlternatingRolesState, artifact: DebateArtifact): JsonObject {
    return { topic: artifact.topic, turns: state.turns.length };
  }
}

/**
 * The judge's conversation for one ask: the motion, each side's stance under
 * its label (`"A" argues for it, "B" against it`, the stances swapped with the
 * labels in the swapped ask) and the reply format with the labels, then the
 * transcript under the labels with each round's turns in `order`, so the
 * swapped ask differs from the first by the order alone. Kept short: beside a
 * one-round debate of 8-token turns it fits the bundled byte-level base's 256
 * tokens of context with room for the verdict.
 */
function judgePrompt(rollout: Rollout, order: readonly [string, string], labels: readonly [string, string]): Messages {
  const { topic } = DebateArtifactSchema.parse(rollout.artifact);
  // The verifier's roles are aff and neg, so `order` holds those two.
  const [first, second] = order as readonly [Side, Side];
  const [firstLabel, secondLabel] = labels;
  return [
    {
      role: "system",
      content: `You judge a debate. Motion: ${topic}\n"${firstLabel}" argues ${STANCES[first]} it, "${secondLabel}" ${STANCES[second]} it. Who argued better? Reply {"winner": "${firstLabel}"} or {"winner": "${secondLabel}"}.`,
    },
    { role: "user", content: formatTranscript(rollout, order, { [first]: firstLabel, [second]: secondLabel }) },
  ];
}

/** Motions the CLI's debate run samples from. */
export const DEBATE_TOPICS: readonly string[] = [
  "Unit tests matter more than integration tests.",
  "Small models trained well beat large models trained badly.",
  "Every public API should be versioned from day one.",
  "Greedy decoding is the right default for evaluation.",
  "Self-play can teach a model skills no dataset contains.",
  "Tabs are better than spaces.",
  "A reward model should never be trained on its own policy's outputs.",
  "Determinism is worth a 10% slowdown.",
];
