import { describe, expect, it } from "vitest";
import { formatTranscript } from "../../../src/core/verifiers/transcript.js";
import { makeRollout, makeStep } from "../../helpers/make-step.js";

describe("formatTranscript", () => {
  const rollout = makeRollout({ steps: [makeStep("aff", "A1"), makeStep("neg", "N1"), makeStep("aff", "A2"), makeStep("neg", "N2"), makeStep("aff", "A3")] });

  it("shows the turns as played, and as played when the order names the first speaker first", () => {
    expect(formatTranscript(rollout)).toBe("aff: A1\n\nneg: N1\n\naff: A2\n\nneg: N2\n\naff: A3");
    expect(formatTranscript(rollout, ["aff", "neg"])).toBe(formatTranscript(rollout));
  });

  it("swaps each round when the order names the second speaker first; an unpaired last turn stays last", () => {
    expect(formatTranscript(rollout, ["neg", "aff"])).toBe("neg: N1\n\naff: A1\n\nneg: N2\n\naff: A2\n\naff: A3");
  });

  it("shows each turn under its name from names, with the order's swap; a role without one keeps its id, an inherited key is no name", () => {
    expect(formatTranscript(rollout, ["neg", "aff"], { neg: "A", aff: "B" })).toBe("A: N1\n\nB: A1\n\nA: N2\n\nB: A2\n\nB: A3");
    const withModerator = makeRollout({ steps: [makeStep("aff", "A1"), makeStep("constructor", "M"), makeStep("neg", "N1")] });
    expect(formatTranscript(withModerator, undefined, { aff: "A", neg: "B" })).toBe("A: A1\n\nconstructor: M\n\nB: N1");
  });

  it("leaves turns of other roles where they are", () => {
    const withModerator = makeRollout({ steps: [makeStep("aff", "A1"), makeStep("mod", "M"), makeStep("neg", "N1")] });
    expect(formatTranscript(withModerator, ["neg", "aff"])).toBe("aff: A1\n\nmod: M\n\nneg: N1");
  });
});
