import { describe, expect, it } from "vitest";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import { routeChallengeSource, type ChallengeSourceKind } from "../../../src/dream/sources/route-challenge-source.js";

function tally(allSaturated: boolean, seed: "mined" | null, draws = 2000): Record<string, number> {
  const random = deriveStream(11, "routing-test");
  const counts: Record<string, number> = {};
  for (let draw = 0; draw < draws; draw++) {
    const { kind } = routeChallengeSource<"mined">(allSaturated, random, () => seed);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

describe("routeChallengeSource", () => {
  it("renders the cluster's template and draws nothing while some candidate is unsaturated", () => {
    const random = deriveStream(11, "routing-test");
    const before = random.state();
    expect(routeChallengeSource(false, random, () => "mined")).toEqual({ kind: "template", seed: null });
    expect(random.state()).toEqual(before);
  });

  it("mines the journal three times in four when everything is saturated, then splits the misses 20/80", () => {
    const counts = tally(true, "mined");
    expect((counts.journal ?? 0) / 2000).toBeCloseTo(0.75, 1);
    const misses = (counts["template-other-cluster"] ?? 0) + (counts.generated ?? 0);
    expect((counts["template-other-cluster"] ?? 0) / misses).toBeCloseTo(0.2, 1);
  });

  it("falls to the 20/80 coin when mining finds nothing, and is reproducible from the seed", () => {
    const counts = tally(true, null);
    expect(counts.journal).toBeUndefined();
    expect((counts["template-other-cluster"] ?? 0) / 2000).toBeCloseTo(0.2, 1);
    expect(tally(true, null)).toEqual(counts);
    const kinds: ChallengeSourceKind[] = [];
    const random = deriveStream(5, "routing");
    for (let draw = 0; draw < 6; draw++) kinds.push(routeChallengeSource(true, random, () => "mined").kind);
    const again: ChallengeSourceKind[] = [];
    const replay = deriveStream(5, "routing");
    for (let draw = 0; draw < 6; draw++) again.push(routeChallengeSource(true, replay, () => "mined").kind);
    expect(again).toEqual(kinds);
  });
});
