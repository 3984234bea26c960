import { describe, expect, it } from "vitest";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import type { FailedRun } from "../../../src/dream/journal/failed-run.js";
import { journalVariationPrompt } from "../../../src/dream/journal/journal-variation-prompt.js";
import { mineJournal } from "../../../src/dream/journal/mine-journal.js";
import { failedRun } from "./journal-helpers.js";

const journalOf = (runs: FailedRun[]) => ({ isReadOnly: true, runs });

describe("mineJournal", () => {
  it("is null for an empty journal or one whose failures all lie in saturated clusters", () => {
    expect(mineJournal(journalOf([]), deriveStream(1, "mine"), [])).toBeNull();
    const runs = [failedRun("a", "regex-parse"), failedRun("b", "algorithms")];
    expect(mineJournal(journalOf(runs), deriveStream(1, "mine"), ["regex-parse", "algorithms"])).toBeNull();
  });

  it("skips saturated clusters", () => {
    const runs = [failedRun("a", "regex-parse"), failedRun("b", "algorithms")];
    for (let seed = 0; seed < 20; seed++) {
      expect(mineJournal(journalOf(runs), deriveStream(seed, "mine"), new Set(["regex-parse"]))?.run.challenge.hash).toBe("b");
    }
  });

  it("retries a challenge that failed once and asks for a variation of one that failed varyAfterFailures times", () => {
    const once = mineJournal(journalOf([failedRun("a")]), deriveStream(1, "mine"), []);
    expect(once).toEqual({ mode: "retry", run: failedRun("a"), failures: 1, errorSummaries: ["error of a"] });
    const twice = [failedRun("a", "regex-parse", "first"), failedRun("a", "regex-parse", "second")];
    expect(mineJournal(journalOf(twice), deriveStream(1, "mine"), [])).toEqual({
      mode: "vary",
      run: twice[1],
      failures: 2,
      errorSummaries: ["first", "second"],
    });
    expect(mineJournal(journalOf(twice), deriveStream(1, "mine"), [], { varyAfterFailures: 3 })?.mode).toBe("retry");
  });

  it("draws from the most recent distinct challenges only, reproducibly from the seed", () => {
    const runs = ["old", "a", "b", "old2", "c"].map((hash) => failedRun(hash));
    runs.push(failedRun("old")); // failed again recently: recent again
    const drawn = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const seedOf = mineJournal(journalOf(runs), deriveStream(seed, "mine"), [], { window: 3 });
      expect(seedOf).toEqual(mineJournal(journalOf(runs), deriveStream(seed, "mine"), [], { window: 3 }));
      drawn.add(seedOf?.run.challenge.hash ?? "none");
    }
    expect([...drawn].sort()).toEqual(["c", "old", "old2"]);
  });
});

describe("journalVariationPrompt", () => {
  it("names the seed, the failed prompt and every error, oldest first", () => {
    const runs = [failedRun("a", "algorithms", "first"), failedRun("a", "algorithms", "second")];
    const seed = mineJournal(journalOf(runs), deriveStream(1, "mine"), []);
    const prompt = journalVariationPrompt(seed as NonNullable<typeof seed>);
    expect(prompt.startsWith("JOURNAL SEED (vary, cluster algorithms, failed 2 time(s)):")).toBe(true);
    expect(prompt).toContain("Challenge a: parse the log");
    expect(prompt).toContain("1. first\n2. second");
  });
});
