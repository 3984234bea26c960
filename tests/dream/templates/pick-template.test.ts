import { describe, expect, it } from "vitest";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import { ChallengeClusterSchema } from "../../../src/dream/challenges/challenge-cluster.js";
import { pickTemplate } from "../../../src/dream/templates/pick-template.js";

describe("pickTemplate", () => {
  it("never returns the same template twice in a row, and uses every template of the cluster", () => {
    for (const cluster of ChallengeClusterSchema.options) {
      const stream = deriveStream(3, "pick", cluster);
      let last: string | null = null;
      const seen = new Set<string>();
      for (let index = 0; index < 60; index++) {
        const picked = pickTemplate(cluster, "basic", stream, last);
        expect(picked).not.toBeNull();
        expect(picked?.templateKey).not.toBe(last);
        expect(picked?.challenge.cluster).toBe(cluster);
        last = picked?.templateKey ?? null;
        seen.add(last as string);
      }
      expect(seen.size).toBeGreaterThanOrEqual(2);
    }
  });

  it("renders at the tier asked for, the same from the same stream", () => {
    const first = pickTemplate("algorithms", "expert", deriveStream(9, "pick"), null);
    const second = pickTemplate("algorithms", "expert", deriveStream(9, "pick"), null);
    expect(first?.challenge.tier).toBe("expert");
    expect(first).toEqual(second);
    expect(first?.challenge.source).toBe("template");
  });

  it("returns the only template again rather than nothing, and null for a cluster without templates", () => {
    const only = pickTemplate("algorithms", "basic", deriveStream(1, "x"), null);
    const templates = [{ key: "algorithms/only", cluster: "algorithms" as const, render: () => ({ prompt: "p", setup: "s", validator: "v", outputFile: "o.json", referenceSolution: "r" }) }];
    expect(pickTemplate("algorithms", "basic", deriveStream(1, "x"), "algorithms/only", { templates })?.templateKey).toBe("algorithms/only");
    expect(pickTemplate("regex-parse", "basic", deriveStream(1, "x"), null, { templates })).toBeNull();
    expect(only).not.toBeNull();
  });
});
