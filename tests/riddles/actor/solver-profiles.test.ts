import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { assignSolverProfiles, SOLVER_PROFILES } from "../../../src/riddles/actor/solver-profiles.js";

describe("assignSolverProfiles", () => {
  it("gives distinct profiles up to the list's length, cycling from a seeded start", () => {
    const profiles = assignSolverProfiles(SOLVER_PROFILES.length, new RandomStream("seed"));
    expect(new Set(profiles.map((profile) => profile.name)).size).toBe(SOLVER_PROFILES.length);
    const start = SOLVER_PROFILES.indexOf(profiles[0]!);
    const twelve = assignSolverProfiles(12, new RandomStream("seed"));
    expect(twelve.map((profile) => profile.name)).toEqual(Array.from({ length: 12 }, (_, index) => SOLVER_PROFILES[(start + index) % SOLVER_PROFILES.length]!.name));
    expect(assignSolverProfiles(12, new RandomStream("seed"))).toEqual(twelve);
  });

  it("has unique names and temperatures the engine accepts", () => {
    expect(new Set(SOLVER_PROFILES.map((profile) => profile.name)).size).toBe(SOLVER_PROFILES.length);
    for (const profile of SOLVER_PROFILES) expect(profile.temperature).toBeGreaterThanOrEqual(0);
  });
});
