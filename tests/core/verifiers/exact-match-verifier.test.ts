import { describe, expect, it } from "vitest";
import { answersMatch } from "../../../src/core/answers/answers-match.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { ExactMatchVerifier } from "../../../src/core/verifiers/exact-match-verifier.js";
import { fakeScoringContext } from "../../helpers/fake-scoring-context.js";
import { makeRollout, makeStep } from "../../helpers/make-step.js";

const context = fakeScoringContext();

describe("ExactMatchVerifier", () => {
  it("rewards 1 for an answer equal to artifacts.expected after trimming", async () => {
    const rollout = makeRollout({ steps: [makeStep("solver", "  42\n")], artifacts: { expected: "42 " } });
    expect(await new ExactMatchVerifier({ roleId: "solver" }).score(rollout, context)).toEqual({
      rewards: { solver: 1 },
      details: { expected: "42", answer: "42", correct: true },
    });
  });

  it("compares with `matches` when given (numbers as numbers), never calling it without an answer", async () => {
    const verifier = new ExactMatchVerifier({ roleId: "solver", extractAnswer: (text) => /\d[\d.]*/.exec(text)?.[0], matches: answersMatch });
    const score = async (text: string) => (await verifier.score(makeRollout({ steps: [makeStep("solver", text)], artifacts: { expected: "42" } }), context)).rewards.solver;
    expect([await score("42.0"), await score("about 42"), await score("41.9"), await score("none")]).toEqual([1, 1, 0, 0]);
    expect(await new ExactMatchVerifier({ roleId: "solver" }).score(makeRollout({ steps: [makeStep("solver", "42.0")], artifacts: { expected: "42" } }), context)).toMatchObject({ rewards: { solver: 0 } });
  });

  it("rewards 0 for a different answer", async () => {
    const rollout = makeRollout({ steps: [makeStep("solver", "41")], artifacts: { expected: "42" } });
    expect(await new ExactMatchVerifier({ roleId: "solver" }).score(rollout, context)).toEqual({
      rewards: { solver: 0 },
      details: { expected: "42", answer: "41", correct: false },
    });
  });

  it("checks the role's last completion, joining its messages, and ignores other roles", async () => {
    const rollout = makeRollout({
      steps: [
        makeStep("solver", "41"),
        makeStep("proposer", "42"),
        makeStep("solver", [
          { role: "assistant", content: "4" },
          { role: "assistant", content: "2" },
        ]),
        makeStep("critic", "nope"),
      ],
      artifacts: { expected: "42" },
    });
    const output = await new ExactMatchVerifier({ roleId: "solver" }).score(rollout, context);
    expect(output.rewards).toEqual({ solver: 1 });
    expect(output.details?.["answer"]).toBe("42");
  });

  it("treats a role that never spoke as answering the empty string", async () => {
    const rollout = makeRollout({ steps: [makeStep("proposer", "42")], artifacts: { expected: "42" } });
    expect(await new ExactMatchVerifier({ roleId: "solver" }).score(rollout, context)).toEqual({
      rewards: { solver: 0 },
      details: { expected: "42", answer: "", correct: false },
    });
  });

  it("uses extractAnswer, and records null when it finds no answer", async () => {
    const extractAnswer = (text: string) => /ANSWER:\s*(\S+)/.exec(text)?.[1];
    const verifier = new ExactMatchVerifier({ roleId: "solver", extractAnswer });
    const hit = makeRollout({ steps: [makeStep("solver", "thinking... ANSWER: 42")], artifacts: { expected: "42" } });
    expect((await verifier.score(hit, context)).rewards).toEqual({ solver: 1 });
    const miss = makeRollout({ steps: [makeStep("solver", "I do not know")], artifacts: { expected: "42" } });
    expect(await verifier.score(miss, context)).toEqual({
      rewards: { solver: 0 },
      details: { expected: "42", answer: null, correct: false },
    });
  });

  it("applies a custom normalize to both sides", async () => {
    const verifier = new ExactMatchVerifier({ roleId: "solver", normalize: (text) => text.trim().toLowerCase() });
    const rollout = makeRollout({ steps: [makeStep("solver", "PARIS")], artifacts: { expected: " Paris" } });
    expect(await verifier.score(rollout, context)).toEqual({
      rewards: { solver: 1 },
      details: { expected: "paris", answer: "paris", correct: true },
    });
  });

  it("pays custom rewards for a match and a miss", async () => {
    const verifier = new ExactMatchVerifier({ roleId: "solver", correctReward: 2, incorrectReward: -1 });
    const right = makeRollout({ steps: [makeStep("solver", "yes")], artifacts: { expected: "yes" } });
    const wrong = makeRollout({ steps: [makeStep("solver", "no")], artifacts: { expected: "yes" } });
    expect((await verifier.score(right, context)).rewards).toEqual({ solver: 2 });
    expect((await verifier.score(wrong, context)).rewards).toEqual({ solver: -1 });
  });

  it("takes the ground truth from the expected option instead of the artifacts", async () => {
    const verifier = new ExactMatchVerifier({
      roleId: "solver",
      expected: (rollout) => (rollout.artifact as { answer: string }).answer,
    });
    const rollout = makeRollout({ artifact: { answer: "7" }, steps: [makeStep("solver", "7")] });
    expect((await verifier.score(rollout, context)).rewards).toEqual({ solver: 1 });
  });

  it.each([
    ["missing", {}],
    ["a number", { expected: 42 }],
    ["null", { expected: null }],
  ])("throws InvalidInputError naming the rollout when artifacts.expected is %s", async (_label, artifacts) => {
    const rollout = makeRollout({ id: "ep9", steps: [makeStep("solver", "42")], artifacts });
    const score = new ExactMatchVerifier({ roleId: "solver" }).score(rollout, context);
    await expect(score).rejects.toThrow(InvalidInputError);
    await expect(score).rejects.toThrow(/rollout ep9/);
  });

  it("never calls the judge", async () => {
    const judgeless = fakeScoringContext();
    const rollout = makeRollout({ steps: [makeStep("solver", "1")], artifacts: { expected: "1" } });
    await new ExactMatchVerifier({ roleId: "solver" }).score(rollout, judgeless);
    expect(judgeless.calls).toEqual([]);
  });
});
