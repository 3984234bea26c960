import { describe, expect, it } from "vitest";
import { z } from "zod";
import { StructuredOutputError } from "../../../src/core/errors/index.js";
import { sampleStructured } from "../../../src/core/structured/sample-structured.js";
import { emptyStructuredOutputStats } from "../../../src/core/structured/structured-output-stats.js";

const Schema = z.object({ score: z.number().min(0).max(1) });

const scripted = (texts: readonly string[]) => {
  const seen: number[] = [];
  return { seen, sample: async (attempt: number) => (seen.push(attempt), { text: texts[attempt] ?? "" }) };
};

describe("sampleStructured", () => {
  it("returns the first valid sample and counts a first-try success", async () => {
    const stats = emptyStructuredOutputStats();
    const { sample, seen } = scripted(['{"score": 0.25}']);
    const result = await sampleStructured({ schema: Schema, maxAttempts: 3, sample, stats });
    expect(result).toEqual({ value: { score: 0.25 }, sample: { text: '{"score": 0.25}' }, attempts: 1 });
    expect(seen).toEqual([0]);
    expect(stats).toEqual({ calls: 1, firstTryValid: 1, resamples: 0, failures: 0 });
  });

  it("resamples past unparsable and schema-invalid outputs, telling onAttempt of each", async () => {
    const stats = emptyStructuredOutputStats();
    const attempts: Array<[number, boolean]> = [];
    const { sample } = scripted(["not json", '{"score": 3}', '{"score": 1}']);
    const result = await sampleStructured({ schema: Schema, maxAttempts: 4, sample, stats, onAttempt: (_, attempt, valid) => attempts.push([attempt, valid]) });
    expect(result.value).toEqual({ score: 1 });
    expect(result.attempts).toBe(3);
    expect(attempts).toEqual([[0, false], [1, false], [2, true]]);
    expect(stats).toEqual({ calls: 1, firstTryValid: 0, resamples: 2, failures: 0 });
  });

  it("throws StructuredOutputError naming the last problem when the budget runs out", async () => {
    const stats = emptyStructuredOutputStats();
    const { sample } = scripted(['{"score": 2}', '{"score": -1}']);
    const failure = sampleStructured({ schema: Schema, maxAttempts: 2, sample, stats });
    await expect(failure).rejects.toThrowError(StructuredOutputError);
    await expect(sampleStructured({ schema: Schema, maxAttempts: 2, sample: scripted(['{"score": 2}', '{"score": -1}']).sample, stats })).rejects.toThrowError(
      /2 attempt\(s\): score: .*last output: "\{\\"score\\": -1\}"/,
    );
    expect(stats).toEqual({ calls: 2, firstTryValid: 0, resamples: 2, failures: 2 });
  });

  it("uses a custom parser for plain-text outputs", async () => {
    const parse = (text: string) => ({ score: Number(/score:\s*([\d.]+)/i.exec(text)?.[1]) });
    const result = await sampleStructured({ schema: Schema, maxAttempts: 1, sample: async () => ({ text: "Score: 0.75, looks fine" }), parse, stats: emptyStructuredOutputStats() });
    expect(result.value).toEqual({ score: 0.75 });
  });
});
