import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ExactMatchVerifier } from "../../../src/core/verifiers/exact-match-verifier.js";
import { labelTrajectories } from "../../../src/frontier/labelling/label-trajectories.js";
import type { LabelledEpisodes } from "../../../src/frontier/labelling/labelled-episodes.js";
import { prmTrajectories } from "../../../src/frontier/labelling/prm-trajectory.js";
import { ArithmeticSolverEpisode } from "../../../src/tasks/arithmetic/arithmetic-solver-episode.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";

describe("Monte-Carlo labels on the engine (project-made tiny model)", () => {
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-label-engine-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
  });

  afterAll(async () => {
    await client.dispose();
  });

  /** Solver rollouts of the tiny model at `temperature`, scored against `expected` as written (no integer parsing) both times. */
  async function trajectories(temperature: number, expected: string) {
    const verifier = new ExactMatchVerifier({ roleId: "solver", expected: () => expected });
    const episodes: LabelledEpisodes = { byType: { "arithmetic-solve": { roleIds: ["solver"], verifier } }, clusterOf: () => "add-2x2-no-carry" };
    const solver = new (class extends ArithmeticSolverEpisode {
      override readonly verifier = verifier;
    })();
    const arena = new Arena({ client, seed: 9, samplerDefaults: { temperature } }).register(solver);
    const artifact = { problem: "23+45", answer: "68", cluster: "add-2x2-no-carry" };
    const results = await arena.generateRollouts([{ episodeType: "arithmetic-solve", artifact }, { episodeType: "arithmetic-solve", artifact }]);
    return { list: prmTrajectories(results, episodes, "engine"), verifierFor: () => verifier };
  }

  it("labels each prefix of a greedy solution with its outcome: every greedy continuation finishes it as it was", async () => {
    // The tiny model's greedy reply to "23+45=" is eight colons; a verifier that wants them scores it 1.
    for (const [expected, outcome] of [["::::::::", 1], [":::::::", 0]] as const) {
      const { list, verifierFor } = await trajectories(0, expected);
      expect(list.map((trajectory) => trajectory.outcome)).toEqual([outcome, outcome]);
      const { examples, continuations } = await labelTrajectories(list, { rollouts: 3, chunk: 3, detokenize: (ids) => client.detokenize(ids), client, verifierFor });
      expect(examples.map((example) => example.prefix)).toEqual(["", ":::", "::::::", "::::::::", "", ":::", "::::::", "::::::::"]);
      expect(continuations).toBe(2 * 3 * 3);
      expect(examples.map((example) => example.label)).toEqual(Array(8).fill(outcome));
    }
  });

  it("labels with success shares in steps of 1/K at temperature 1, reproducibly", async () => {
    const { list, verifierFor } = await trajectories(1, "::::::::");
    const label = () => labelTrajectories(list, { rollouts: 4, chunk: 2, detokenize: (ids) => client.detokenize(ids), client, verifierFor, seed: 5 });
    const first = await label();
    for (const example of first.examples) expect(Number.isInteger(example.label * 4)).toBe(true);
    expect((await label()).examples).toEqual(first.examples);
  });
});
