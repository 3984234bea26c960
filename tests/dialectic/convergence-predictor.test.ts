import { describe, expect, it } from "vitest";
import { ConvergencePredictor, type ConvergenceExample, type PredictorRound } from "../../src/dialectic/convergence-predictor.js";

const DRAFTS = ["Use a regular expression.", "Split at the last @ sign.", "Walk a state machine.", "Ask the mail server."];

const rounds = (scores: number[], options: { approved?: boolean; proposals?: string[]; issues?: string[][] } = {}): PredictorRound[] =>
  scores.map((score, index) => ({
    proposal: options.proposals?.[index] ?? (DRAFTS[index] as string),
    critique: { approved: options.approved ?? false, score, issues: options.issues?.[index] ?? [] },
  }));

describe("ConvergencePredictor", () => {
  const predictor = new ConvergencePredictor();

  it("reads a rising trend that reaches the threshold as likely, a flat low one as unlikely", () => {
    const rising = predictor.predict(rounds([0.6, 0.72]));
    const flat = predictor.predict(rounds([0.5, 0.51]));
    const falling = predictor.predict(rounds([0.7, 0.6]));
    expect(rising).toBeGreaterThan(0.5);
    expect(flat).toBeLessThan(0.1);
    expect(falling).toBeLessThan(rising);
    for (const probability of [rising, flat, falling]) expect(probability > 0 && probability < 1).toBe(true);
  });

  it("lowers the probability when the rounds oscillate, and says 1 once a round converged", () => {
    const steady = predictor.predict(rounds([0.7, 0.78, 0.8]));
    const flipFlop = predictor.predict(rounds([0.7, 0.78, 0.8], { proposals: ["same idea here", "another idea there", "same idea here"] }));
    expect(flipFlop).toBeLessThan(steady);
    expect(predictor.predict(rounds([0.9], { approved: true }))).toBe(1);
    expect(() => predictor.predict([])).toThrow(/at least one round/);
  });

  it("is more hopeful with more rounds left", () => {
    const short = new ConvergencePredictor({ settings: { maxRounds: 3 } }).predict(rounds([0.6, 0.68]));
    const long = new ConvergencePredictor({ settings: { maxRounds: 8 } }).predict(rounds([0.6, 0.68]));
    expect(long).toBeGreaterThan(short);
  });

  it("fits its weights to recorded runs, deterministically, and beats the default where the defaults are wrong", () => {
    // A world where only high first scores converge, whatever the trend.
    const examples: ConvergenceExample[] = [];
    for (let index = 0; index < 40; index++) {
      const first = 0.3 + (index % 10) * 0.06;
      const second = first + (index % 3 === 0 ? 0.1 : -0.05);
      examples.push({ rounds: rounds([first, second]), converged: first >= 0.6 });
    }
    const fitted = ConvergencePredictor.fit(examples);
    expect(ConvergencePredictor.fit(examples).weights).toEqual(fitted.weights);
    const brier = (model: ConvergencePredictor) =>
      examples.reduce((total, example) => total + (model.predict(example.rounds) - (example.converged ? 1 : 0)) ** 2, 0) / examples.length;
    expect(brier(fitted)).toBeLessThan(brier(predictor));
    expect(brier(fitted)).toBeLessThan(0.1);
    expect(() => ConvergencePredictor.fit([])).toThrow(/at least one recorded run/);
  });

  it("rejects weights that are not numbers", () => {
    expect(() => new ConvergencePredictor({ weights: { ...predictor.weights, gap: Number.NaN } })).toThrow(/weights\.gap/);
  });
});
