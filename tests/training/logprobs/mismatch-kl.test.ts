import { describe, expect, it } from "vitest";
import { logprobAgreement } from "../../../src/training/logprobs/logprob-agreement.js";
import { mismatchKl } from "../../../src/training/logprobs/mismatch-kl.js";

describe("mismatchKl (k3 estimator of KL(engine ‖ trainer))", () => {
  it("is the mean of e^δ − 1 − δ, δ = trainer − engine, computed by hand", () => {
    const engine = [-1, -2, -0.5];
    const trainer = [-1.1, -2, -0.3];
    const k3 = (delta: number) => Math.exp(delta) - 1 - delta;
    expect(mismatchKl(engine, trainer)).toBeCloseTo((k3(-0.1) + k3(0) + k3(0.2)) / 3, 15);
  });

  it("resolves differences of 1e-7 (≈ δ²/2) instead of cancelling them to 0", () => {
    expect(mismatchKl([-3], [-3 + 1e-7])).toBeCloseTo(5e-15, 20);
    expect(mismatchKl([], [])).toBe(0);
  });

  it("needs one trainer logprob per engine logprob", () => {
    expect(() => mismatchKl([-1, -2], [-1])).toThrow(/trainerLogprobs\.length: got 1; expected 2/);
  });
});

describe("logprobAgreement", () => {
  it("reports max and mean absolute difference and the mismatch KL", () => {
    expect(logprobAgreement([-1, -2, -3, -4], [-1.5, -2, -3.25, -4])).toEqual({
      tokens: 4,
      maxAbsDiff: 0.5,
      p99AbsDiff: 0.5,
      meanAbsDiff: 0.1875,
      mismatchKl: mismatchKl([-1, -2, -3, -4], [-1.5, -2, -3.25, -4]),
    });
    expect(logprobAgreement([], [])).toEqual({ tokens: 0, maxAbsDiff: 0, p99AbsDiff: 0, meanAbsDiff: 0, mismatchKl: 0 });
    // Nearest rank: of 200 differences the 198th smallest, so the two largest do not count.
    const engine = Array.from({ length: 200 }, (_, index) => (index < 198 ? 0.001 : 1));
    expect(logprobAgreement(engine, new Array<number>(200).fill(0)).p99AbsDiff).toBe(0.001);
  });
});
