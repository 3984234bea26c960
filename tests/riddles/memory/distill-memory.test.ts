import { describe, expect, it } from "vitest";
import type { ActorMemoryEntry } from "../../../src/riddles/memory/actor-memory-entry.js";
import { distillActorMemory } from "../../../src/riddles/memory/distill-actor-memory.js";
import { distillRiddlerMemory } from "../../../src/riddles/memory/distill-riddler-memory.js";
import { formatRiddlerEntry, type RiddlerMemoryEntry } from "../../../src/riddles/memory/riddler-memory-entry.js";

const riddle = (episodeIndex: number, text: string, solveRate: number, tags: string[], extra: Partial<RiddlerMemoryEntry> = {}): RiddlerMemoryEntry => ({
  episodeIndex,
  riddleId: `id${episodeIndex}`,
  riddle: text,
  tags,
  difficultyGuessPct: 50,
  solved: Math.round(solveRate * 10),
  solverRuns: 10,
  solveRate,
  reward: 0.5,
  nearDuplicate: false,
  attempts: 1,
  ...extra,
});

describe("distillRiddlerMemory", () => {
  it("counts the band share, calibration, solve rate by tag and by operand size, and says which way recent riddles missed", () => {
    const entries = [
      riddle(0, "7+2=", 0.9, ["addition"]),
      riddle(1, "71+25=", 0.5, ["addition", "carry"], { nearDuplicate: true }),
      riddle(2, "93-48=", 0.8, ["subtraction"]),
      { ...riddle(3, "", 0, []), riddleId: null, riddle: null, solveRate: null, difficultyGuessPct: null, solved: 0, solverRuns: 0, reward: 0, attempts: 3 },
    ];
    expect(distillRiddlerMemory(entries, { low: 0.3, high: 0.7 })).toEqual([
      "episodes 4: valid 3, no riddle 1; in band 0.3–0.7: 1/3 (33%); near-duplicates 1; mean reward 0.375",
      "guessed vs measured solve rate: mean |error| 23 points, guesses run low (riddles easier than guessed)",
      'tag "addition": 2 riddle(s), mean solve rate 70%, in band 1',
      'tag "carry": 1 riddle(s), mean solve rate 50%, in band 1',
      'tag "subtraction": 1 riddle(s), mean solve rate 80%, in band 0',
      "largest number 2 digit(s): 2 riddle(s), mean solve rate 65%, in band 1",
      "largest number 1 digit(s): 1 riddle(s), mean solve rate 90%, in band 0",
      "last 3 riddles too easy (mean solve rate 73%): make them harder",
    ]);
    expect(formatRiddlerEntry(entries[1] as RiddlerMemoryEntry)).toBe('- ep 1 · id id1 · tags addition,carry · guessed 50% · solved 5/10 (50%) · reward 0.500 · duplicate yes · "71+25="');
    expect(formatRiddlerEntry(entries[3] as RiddlerMemoryEntry)).toBe("- ep 3 · no valid riddle after 3 attempt(s) · reward 0.000");
  });
});

describe("distillActorMemory", () => {
  it("ranks profiles by success, then runs, then name, and compares runs with and without a partner", () => {
    const entries: ActorMemoryEntry[] = [
      { episodeIndex: 0, solved: 3, solverRuns: 4, partnersUsed: 1, profiles: [{ profile: "quick", runs: 2, solved: 1, partnerRuns: 1, partnerSolved: 1 }, { profile: "careful", runs: 2, solved: 2, partnerRuns: 0, partnerSolved: 0 }] },
      { episodeIndex: 1, solved: 1, solverRuns: 4, partnersUsed: 0, profiles: [{ profile: "quick", runs: 2, solved: 0, partnerRuns: 0, partnerSolved: 0 }, { profile: "backwards", runs: 2, solved: 1, partnerRuns: 0, partnerSolved: 0 }] },
    ];
    expect(distillActorMemory(entries)).toEqual([
      "episodes 2: solver runs 8, solved 4 (50%)",
      '#1 profile "careful": solved 2/2 (100%)',
      '#2 profile "backwards": solved 1/2 (50%)',
      '#3 profile "quick": solved 1/4 (25%)',
      "partners: 1 used; solved with a partner 1/1 (100%), without 3/7 (43%)",
    ]);
  });
});
