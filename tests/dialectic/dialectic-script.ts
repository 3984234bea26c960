import { Arena } from "../../src/arena/arena.js";
import type { GenerationRequest } from "../../src/core/inference-client.js";
import type { GenerateResult } from "../../src/core/schemas/generate-result.js";
import { DialecticEpisode, type DialecticEpisodeOptions } from "../../src/dialectic/dialectic-episode.js";
import { DialecticOutcomeSchema, type DialecticOutcome } from "../../src/dialectic/dialectic-outcome.js";
import { ScriptedInferenceClient } from "../../src/inference/scripted-inference-client.js";

/** A critique as a test writes it: unset fields are not approved, empty. */
export interface ScriptedCritique {
  approved?: boolean;
  score: number;
  feedback?: string;
  issues?: string[];
  suggestions?: string[];
}

export interface DialecticScript {
  /** The proposer's reply in each round, in order. */
  proposals: readonly string[];
  /** The critics' replies, one per critic call in order: objects are sent as JSON, strings as written. */
  critiques: ReadonlyArray<ScriptedCritique | string>;
  /** The judge client constrains to JSON schemas (the strict path). Default false: a plain-text critic. */
  judgeJsonSchema?: boolean;
  seed?: number;
}

export interface PlayedDialectic {
  result: GenerateResult;
  /** The recorded outcome; throws when the rollout failed. */
  outcome: () => DialecticOutcome;
  /** What the proposer (policy client) was asked, in order. */
  policyRequests: readonly GenerationRequest[];
  /** What the critics (judge client) were asked, in order. */
  judgeRequests: readonly GenerationRequest[];
}

export function critiqueJson(critique: ScriptedCritique): string {
  return JSON.stringify({ approved: false, feedback: "", issues: [], suggestions: [], ...critique });
}

/**
 * Plays one DialecticEpisode with scripted players: the proposer answers
 * `proposals` round by round and the critics answer `critiques` call by call
 * (a call beyond the script fails the rollout).
 */
export async function playDialectic(script: DialecticScript, options: DialecticEpisodeOptions = {}): Promise<PlayedDialectic> {
  let proposals = 0;
  let critiques = 0;
  const next = <Item>(items: readonly Item[], index: number, who: string): Item => {
    const item = items[index];
    if (item === undefined) throw new Error(`the script has no ${who} reply for call ${index + 1}`);
    return item;
  };
  const client = new ScriptedInferenceClient({
    rules: [
      { when: /^system: You are a proposal generator/, reply: () => next(script.proposals, proposals++, "proposer") },
      {
        when: /^system: You are a strict but fair critic/,
        reply: () => {
          const critique = next(script.critiques, critiques++, "critic");
          return typeof critique === "string" ? critique : critiqueJson(critique);
        },
      },
    ],
  });
  const judgeClient = new ScriptedInferenceClient({
    rules: [
      {
        when: /^system: You are a strict but fair critic/,
        reply: () => {
          const critique = next(script.critiques, critiques++, "critic");
          return typeof critique === "string" ? critique : critiqueJson(critique);
        },
      },
    ],
    capabilities: { jsonSchema: script.judgeJsonSchema ?? false },
  });
  const arena = new Arena({ client, judgeClient, seed: script.seed ?? 1 }).register(new DialecticEpisode(options));
  const [result] = await arena.generateRollouts([{ episodeType: "dialectic", artifact: { task: "Write an email validator" } }]);
  return {
    result: result as GenerateResult,
    outcome: () => {
      if (result?.outcome.status !== "scored") throw new Error(`the rollout failed: ${JSON.stringify(result?.outcome)}`);
      return DialecticOutcomeSchema.parse(result.rollout.artifacts);
    },
    policyRequests: client.requests,
    judgeRequests: judgeClient.requests,
  };
}

/** Distinct proposals (no two near-duplicates), one per round. */
export function distinctProposals(count: number): string[] {
  const drafts = [
    "Use one regular expression that follows the RFC closely.",
    "Split the address at the last @ and check each part by hand.",
    "Call the platform's URL parser on a mailto link built from the input.",
    "Send a confirmation message and treat a reply as proof of validity.",
    "Compare the domain against a list of known providers first.",
    "Tokenise the address and walk a small state machine over it.",
    "Look up the domain's MX record, then check the local part's length.",
  ];
  return drafts.slice(0, count);
}
