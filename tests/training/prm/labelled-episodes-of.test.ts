import { describe, expect, it } from "vitest";
import type { Rollout } from "../../../src/core/schemas/rollout.js";
import { createArithmeticEnvironment } from "../../../src/tasks/arithmetic/arithmetic-environment.js";
import { labelledEpisodesOf } from "../../../src/training/prm/labelled-episodes-of.js";
import { createEnvironment as createLabellingEnvironment } from "../../helpers/labelling-environment.js";

const rolloutOf = (episodeType: string, artifact: Rollout["artifact"]) => ({ episodeType, artifact }) as Rollout;

describe("labelledEpisodesOf", () => {
  it("labels arithmetic's solvers only, clustered by the proposer's target cluster", async () => {
    const episodes = await labelledEpisodesOf(createArithmeticEnvironment());
    expect(Object.keys(episodes.byType)).toEqual(["arithmetic-solve"]);
    expect(episodes.byType["arithmetic-solve"]?.roleIds).toEqual(["solver"]);
    expect(episodes.clusterOf(rolloutOf("arithmetic-propose", { cluster: "add-1x1-carry" }))).toBe("add-1x1-carry");
    // A solver takes its proposer's cluster.
    expect(episodes.clusterOf(rolloutOf("arithmetic-solve", { problem: "1+9", answer: "10", cluster: "add-1x1-carry" }))).toBeUndefined();
  });

  it("labels every episode type's trainable roles, and has no clusters of its own when the environment declares none", async () => {
    const episodes = await labelledEpisodesOf(createLabellingEnvironment({}));
    expect(Object.fromEntries(Object.entries(episodes.byType).map(([type, episode]) => [type, episode.roleIds]))).toEqual({ quiz: ["answerer"], recheck: ["answerer"] });
    expect(episodes.clusterOf(rolloutOf("quiz", { question: "5+5=", expected: "10" }))).toBeUndefined();
    const clustered = await labelledEpisodesOf(createLabellingEnvironment({ clustered: true }));
    expect(clustered.clusterOf(rolloutOf("quiz", { question: "5+5=", expected: "10" }))).toBe("two-digit");
    expect(clustered.clusterOf(rolloutOf("recheck", { question: "5+5=", expected: "10" }))).toBeUndefined();
  });

  it("leaves out roles bound to a frozen policy", async () => {
    const episodes = await labelledEpisodesOf({ ...createLabellingEnvironment({}), frozenRoles: { answerer: "base" } });
    expect(episodes.byType).toEqual({});
  });
});
