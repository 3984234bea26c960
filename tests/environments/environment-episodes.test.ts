import { describe, expect, it } from "vitest";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import { environmentEpisodes } from "../../src/environments/environment-episodes.js";
import { EnvironmentModuleError } from "../../src/environments/errors/index.js";
import { createExactMatchEnvironment } from "../../src/tasks/exact-match/exact-match-environment.js";

describe("environmentEpisodes: the stores are checked against their episodes' artifact schemas when the environment loads", () => {
  it("loads the episodes of an environment whose every store item fits", async () => {
    const environment = await createExactMatchEnvironment({ prompts: 2 });
    expect((await environmentEpisodes(environment, "exact-match")).map((episode) => episode.type)).toEqual(["dataset"]);
  });

  it("names the index of the first bad item, the field and the reason, not only when a step draws it", async () => {
    const environment = {
      ...(await createExactMatchEnvironment({ prompts: 2 })),
      // A dataset episode's artifact is a row: any JSON object, so the third item (a bare string) is the first that does not fit.
      stores: { dataset: ArtifactStore.of([{ question: "1+1=", answer: "2" }, { question: "2+2=", answer: "4" }, "3+3=", { question: 4 }]) },
    };
    const load = environmentEpisodes(environment, "./my-environment.js");
    await expect(load).rejects.toThrow(EnvironmentModuleError);
    await expect(load).rejects.toThrow(
      /^environment \.\/my-environment\.js: item 2 of its "dataset" store \(of 4\) does not fit the episode's artifact schema: artifact\.? \(episode "dataset"\): got "3\+3="; expected .*record.*; fix the data, or the episode's artifactSchema$/,
    );
  });
});
