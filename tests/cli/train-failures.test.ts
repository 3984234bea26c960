import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { runCli } from "../helpers/run-cli.js";

// Through vitest, as the code under test: one ArtifactStore class, checked by instanceof.
const SELFPLAY = join(import.meta.dirname, "../../src/index.ts");

/**
 * An environment module, imported through vitest as the tests' own code is: one echo question,
 * 2 prompts × 2 attempts a step. `verifier` and `extra` are source text spliced in, one failure each.
 */
function echoEnvironment({ verifier = 'new ExactMatchVerifier({ roleId: "student" })', store = '[{ question: "1+1=", expected: "2" }]', extra = "" } = {}): string {
  return `
import { ArtifactStore, ExactMatchVerifier, RoleSchema, SingleTurnEpisode } from "${SELFPLAY}";
import { z } from "zod";
class Echo extends SingleTurnEpisode {
  type = "echo";
  roles = [RoleSchema.parse({ id: "student", sampler: { maxTokens: 2 } })];
  verifier = ${verifier};
  roleId = "student";
  artifactSchema = z.object({ question: z.string(), expected: z.string() });
  prompt(artifact) { return [{ role: "user", content: artifact.question }]; }
  finalize(state, artifact) { return { expected: artifact.expected }; }
}
export const createEpisodes = () => [new Echo()];
export function createEnvironment() {
  return { name: "echo", episodes: { module: import.meta.url, exportName: "createEpisodes" }, stores: { echo: ArtifactStore.of(${store}) }, plan: [{ episodeType: "echo", count: 2, groupSize: 2 }]${extra} };
}
`;
}

interface StepLine {
  step: number;
  skippedUpdate?: boolean;
  rollouts?: { scored: number; failed: number; dropped: number };
  failures?: Record<string, Record<string, number>>;
  firstFailure?: { rolloutId: string; stage: string; error: { name: string } };
}

async function stepLines(out: string): Promise<StepLine[]> {
  return (await readFile(join(out, "metrics.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as StepLine)
    .filter((line) => line.rollouts !== undefined);
}

describe("selfplay train: failures a user sees (real engine)", () => {
  let folder: string;
  let modelPath: string;
  let config: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-train-failures-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ sequences: 4, evaluateEvery: 0 }));
  });

  async function train(name: string, source: string, steps: number) {
    const module = join(folder, `${name}.js`);
    await writeFile(module, source);
    const out = join(folder, `run-${name}`);
    return { out, ...(await runCli(["train", "--env", module, "--model", modelPath, "--config", config, "--steps", String(steps), "--out", out])) };
  }

  it("a verifier whose extractAnswer throws: each step's line shows the failures, metrics.jsonl counts them, and the run stops with exit 1 after maxFailedSteps", async () => {
    const verifier = 'new ExactMatchVerifier({ roleId: "student", extractAnswer: (completion) => completion.answer.trim() })';
    const { out, code, stderr } = await train("throwing-verifier", echoEnvironment({ verifier }), 6);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/^step 1\/6: reward none; NO TRAINABLE RECORD \(update skipped\);.*\n {2}4 of 4 rollouts FAILED: score 4 \(TypeError 4\); first ep\d+ \(echo\) at score: TypeError: Cannot read properties of undefined \(reading 'trim'\)$/m);
    expect(stderr).toMatch(
      /error: RolloutsFailedError: step 3: 4 of 4 rollouts failed, and 3 steps in a row had at least maxFailedFraction of them fail, so the run stops\. The first: rollout ep\d+ \(echo\) failed at the score stage with TypeError: Cannot read properties of undefined \(reading 'trim'\)\./,
    );
    expect(stderr).not.toMatch(/^step 4\//m);
    const steps = await stepLines(out);
    expect(steps.map((line) => [line.step, line.rollouts, line.failures, line.firstFailure?.stage, line.firstFailure?.error.name])).toEqual([
      [1, { scored: 0, failed: 4, dropped: 0 }, { score: { TypeError: 4 } }, "score", "TypeError"],
      [2, { scored: 0, failed: 4, dropped: 0 }, { score: { TypeError: 4 } }, "score", "TypeError"],
      [3, { scored: 0, failed: 4, dropped: 0 }, { score: { TypeError: 4 } }, "score", "TypeError"],
    ]);
    // Logged and checkpointed before it stopped; no final model of a run that did not finish.
    expect(existsSync(join(out, "checkpoints", "step-3.json"))).toBe(true);
    expect(existsSync(join(out, "final.gguf"))).toBe(false);
  });

  it("evaluate() returning {accuracy, n}: exit 2 naming the field and the rename, never a NaN% line", async () => {
    const { code, stderr } = await train("misnamed-evaluation", echoEnvironment({ extra: ", evaluate: async () => ({ accuracy: 0.5, n: 1 })" }), 1);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/misnamed-evaluation\.js: evaluate\(\) returned \{accuracy, n\}: expected \{heldOutAccuracy, n\} — .*; "heldOutAccuracy": missing; expected a share from 0 to 1.* — rename accuracy to heldOutAccuracy$/m);
    expect(stderr).not.toMatch(/NaN/);
  });

  it("a store item the episode's artifact schema refuses: exit 2 naming its index and the reason, before any file is written", async () => {
    const store = '[{ question: "1+1=", expected: "2" }, { question: "2+2=", answer: "4" }]';
    const { out, code, stderr } = await train("bad-store-item", echoEnvironment({ store }), 1);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/bad-store-item\.js: item 1 of its "echo" store \(of 2\) does not fit the episode's artifact schema: artifact\.expected \(episode "echo"\): Invalid input: expected string, received undefined; fix the data/);
    expect(existsSync(out)).toBe(false);
  });

  it("misspelt keys of the environment and its plan entries: exit 2 naming the key and the nearest valid one, before any file is written", async () => {
    const evaluate = await train("evalute", echoEnvironment({ extra: ", evalute: async () => ({ heldOutAccuracy: 1, n: 1 })" }), 1);
    expect(evaluate.code, evaluate.stderr).toBe(2);
    // The module's key, not the config file's: no `config.json:` before it.
    expect(evaluate.stderr).toMatch(/^error: environment \/.*evalute\.js: evalute: unknown key; did you mean "evaluate"\?$/m);
    expect(existsSync(evaluate.out)).toBe(false);
    const plan = await train("plna", echoEnvironment().replace("plan: [", "plna: ["), 1);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stderr).toMatch(/plna\.js: plna: unknown key; did you mean "plan"\?/);
    const entry = await train("group-size", echoEnvironment().replace("groupSize: 2", "groupsize: 2"), 1);
    expect(entry.code, entry.stderr).toBe(2);
    expect(entry.stderr).toMatch(/group-size\.js: plan\.0\.groupsize: unknown key; did you mean "groupSize"\?/);
  });
});
