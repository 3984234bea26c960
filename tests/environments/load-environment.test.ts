import { describe, expect, it } from "vitest";
import { UnknownKeyError } from "../../src/core/errors/index.js";
import { loadEnvironmentFrom } from "../../src/environments/load-environment.js";
import { EnvironmentModuleError } from "../../src/environments/errors/index.js";
import { createExactMatchEnvironment } from "../../src/tasks/exact-match/exact-match-environment.js";

/** A registry of one environment: exact-match with `change` applied to what its factory returns. */
function registryReturning(change: (environment: Record<string, unknown>) => Record<string, unknown>) {
  return { typo: async () => change({ ...(await createExactMatchEnvironment({ prompts: 2 })) }) as never };
}

describe("loadEnvironmentFrom: the environment contract is strict", () => {
  it("loads an environment that declares only the contract's keys", async () => {
    const environment = await loadEnvironmentFrom(registryReturning((environment) => environment), "typo");
    expect(environment.plan).toEqual([{ episodeType: "dataset", count: 2, groupSize: 8 }]);
  });

  it("refuses a misspelt key of the environment (`evalute`), naming it and the nearest valid key", async () => {
    const load = loadEnvironmentFrom(registryReturning(({ evaluate, ...rest }) => ({ ...rest, evalute: evaluate })), "typo");
    await expect(load).rejects.toThrow(UnknownKeyError);
    await expect(load).rejects.toThrow('environment typo: evalute: unknown key; did you mean "evaluate"?');
  });

  it("names a misspelt required key (`plna`), not the key it leaves missing", async () => {
    const load = loadEnvironmentFrom(registryReturning(({ plan, ...rest }) => ({ ...rest, plna: plan })), "typo");
    await expect(load).rejects.toThrow('environment typo: plna: unknown key; did you mean "plan"?');
  });

  it("refuses a misspelt key of a plan entry and of the clusters, with its path", async () => {
    const plan = loadEnvironmentFrom(registryReturning((environment) => ({ ...environment, plan: [{ episodeType: "dataset", count: 2, groupsize: 4 }] })), "typo");
    await expect(plan).rejects.toThrow('environment typo: plan.0.groupsize: unknown key; did you mean "groupSize"?');
    const clusters = loadEnvironmentFrom(
      registryReturning((environment) => ({ ...environment, clusters: { episodeType: "dataset", names: ["a"], of: () => "a", fristTask: () => "a" } })),
      "typo",
    );
    await expect(clusters).rejects.toThrow('environment typo: clusters.fristTask: unknown key; did you mean "firstTask"?');
  });

  it("lists the valid keys when no key is close, and still names a bad value as before", async () => {
    const far = loadEnvironmentFrom(registryReturning((environment) => ({ ...environment, somethingElse: 1 })), "typo");
    await expect(far).rejects.toThrow(/environment typo: somethingElse: unknown key; remove it \(valid keys here: name, episodes, stores, plan, .*evaluate/);
    const bad = loadEnvironmentFrom(registryReturning((environment) => ({ ...environment, plan: [] })), "typo");
    await expect(bad).rejects.toThrow(EnvironmentModuleError);
    await expect(bad).rejects.toThrow(/environment typo: the environment it returned has a bad "plan": at least one entry/);
  });
});
