import { z } from "zod";
import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { AlternatingRolesEpisode, viewOf, type AlternatingRolesState } from "../../../src/core/episodes/alternating-roles-episode.js";
import { MultiTurnEpisode, type EnvironmentReply, type MultiTurnState } from "../../../src/core/episodes/multi-turn-episode.js";
import type { Messages } from "../../../src/core/schemas/message.js";
import { RoleSchema } from "../../../src/core/schemas/role.js";
import type { Verifier } from "../../../src/core/verifiers/verifier.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

const TargetSchema = z.object({ target: z.number().int() });
type Target = z.infer<typeof TargetSchema>;

/** Guess-the-number: the environment says higher/lower until the guess is right. */
class GuessEpisode extends MultiTurnEpisode<Target> {
  readonly type = "guess";
  readonly roles = [RoleSchema.parse({ id: "guesser" })];
  readonly verifier: Verifier = {
    score: async (rollout) => ({ rewards: { guesser: rollout.artifacts["solved"] === true ? 1 : 0 } }),
  };
  protected readonly artifactSchema = TargetSchema;
  protected readonly roleId = "guesser";
  protected readonly maxTurns = 4;

  protected initialMessages(): Messages {
    return [{ role: "user", content: "Guess a number from 1 to 10." }];
  }

  protected async environmentReply(state: MultiTurnState, artifact: Target): Promise<EnvironmentReply> {
    const guess = Number(state.messages.at(-1)?.content);
    if (guess === artifact.target) return { content: "", done: true };
    return { content: guess < artifact.target ? "higher" : "lower", done: false };
  }

  finalize(state: MultiTurnState) {
    return { solved: state.finished, turns: state.turns };
  }
}

/** Counts up from the last number heard; binary-search style guesses for the guesser. */
const guessingClient = () =>
  new ScriptedInferenceClient({
    rules: [
      {
        when: /.*/s,
        reply: (request) => {
          const guesses = request.messages.filter((message) => message.role === "assistant").map((message) => Number(message.content));
          const last = guesses.at(-1);
          if (last === undefined) return "5";
          return String(request.messages.at(-1)?.content === "higher" ? last + 1 : last - 1);
        },
      },
    ],
  });

describe("MultiTurnEpisode", () => {
  it("loops until the environment is done", async () => {
    const arena = new Arena({ client: guessingClient(), seed: 1 }).register(new GuessEpisode());
    const [result] = await arena.generateRollouts([{ episodeType: "guess", artifact: { target: 7 } }]);
    expect(result?.rollout.steps.map((step) => step.completion[0]?.content)).toEqual(["5", "6", "7"]);
    expect(result?.rollout.artifacts).toEqual({ solved: true, turns: 3 });
    expect(result?.rewards).toEqual({ guesser: 1 });
    expect(result?.rollout.steps[2]?.prompt.map((message) => message.content)).toEqual([
      "Guess a number from 1 to 10.", "5", "higher", "6", "higher",
    ]);
  });

  it("stops at the turn limit", async () => {
    const arena = new Arena({ client: guessingClient(), seed: 1 }).register(new GuessEpisode());
    const [result] = await arena.generateRollouts([{ episodeType: "guess", artifact: { target: 1 } }]);
    expect(result?.rollout.steps).toHaveLength(4);
    expect(result?.rollout.artifacts).toEqual({ solved: false, turns: 4 });
  });

  it("rejects an artifact that does not match the episode's schema, naming the field", async () => {
    const arena = new Arena({ client: guessingClient(), seed: 1 }).register(new GuessEpisode());
    const [result] = await arena.generateRollouts([{ episodeType: "guess", artifact: { target: "seven" } }]);
    expect(result?.outcome).toMatchObject({ status: "failed", stage: "artifact", error: { name: "InvalidInputError" } });
    expect(result?.outcome.status === "failed" && result.outcome.error.message).toMatch(/artifact\.target/);
  });
});

class CountingGame extends AlternatingRolesEpisode<{ start: number }> {
  readonly type = "count";
  readonly roles = ["a", "b", "c"].map((id) => RoleSchema.parse({ id }));
  readonly verifier: Verifier = { score: async () => ({ rewards: { a: 0, b: 0, c: 0 } }) };
  protected readonly artifactSchema = z.object({ start: z.number() });
  protected readonly turnOrder = ["a", "b", "c"];
  protected readonly maxTurns = 7;
  protected openingPrompt(artifact: { start: number }) {
    return `Count up from ${artifact.start}; say "stop" at five.`;
  }
  protected override isFinished(state: AlternatingRolesState) {
    return state.turns.at(-1)?.content === "stop";
  }
  finalize(state: AlternatingRolesState) {
    return { turns: state.turns.length };
  }
}

describe("AlternatingRolesEpisode", () => {
  it("rotates speakers and stops when the episode says so", async () => {
    const client = new ScriptedInferenceClient({
      rules: [
        {
          when: /.*/s,
          reply: (request) => {
            const heard = request.messages.flatMap((message) => message.content.match(/\d+/g) ?? []).map(Number);
            const next = Math.max(...heard) + 1;
            return next >= 5 ? "stop" : String(next);
          },
        },
      ],
    });
    const arena = new Arena({ client, seed: 1 }).register(new CountingGame());
    const [result] = await arena.generateRollouts([{ episodeType: "count", artifact: { start: 1 } }]);
    expect(result?.rollout.steps.map((step) => [step.roleId, step.completion[0]?.content])).toEqual([
      ["a", "2"], ["b", "3"], ["c", "4"], ["a", "stop"],
    ]);
  });

  it("shows a role its own turns as assistant messages and the others' as merged user messages", () => {
    const turns = [
      { roleId: "a", content: "one" },
      { roleId: "b", content: "two" },
      { roleId: "c", content: "three" },
    ];
    expect(viewOf("a", "Go.", turns)).toEqual([
      { role: "user", content: "Go." },
      { role: "assistant", content: "one" },
      { role: "user", content: "b: two\n\nc: three" },
    ]);
    expect(viewOf("c", "Go.", turns)).toEqual([
      { role: "user", content: "Go.\n\na: one\n\nb: two" },
      { role: "assistant", content: "three" },
    ]);
  });
});
