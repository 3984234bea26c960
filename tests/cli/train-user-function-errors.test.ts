import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { runCli } from "../helpers/run-cli.js";

// Through vitest, as the code under test: the same classes the CLI checks.
const SELFPLAY = join(import.meta.dirname, "../../src/index.ts");
const ROOT = resolve(import.meta.dirname, "../..");

/** Twenty rows of a dataset; the held-out tenth is evaluated at step 0, before any rollout. */
const ROWS = JSON.stringify(Array.from({ length: 20 }, (_, index) => ({ q: `${index}+1=`, a: String(index + 1) })));

/** Each case's module: the line of the user's code that throws is marked, so the test knows its number. */
const MODULES: Record<string, string> = {
  // A reward function that reads a column the rows lack: `item.label` is undefined.
  "reward-function": `
import { createDatasetEnvironment } from "${SELFPLAY}";
function short(completion, item) {
  return item.label.length < 3 ? 1 : 0; // THROWS
}
export function createEnvironment() {
  return createDatasetEnvironment({ data: ${ROWS}, prompt: "q", rewards: [short], prompts: 2, groupSize: 2, maxTokens: 2 });
}
`,
  factory: `
export function createEnvironment(options) {
  return { name: options.name.trim() }; // THROWS
}
`,
  evaluate: `
import { createDatasetEnvironment } from "${SELFPLAY}";
export async function createEnvironment() {
  const environment = await createDatasetEnvironment({ data: ${ROWS}, prompt: "q", answer: "a", prompts: 2, groupSize: 2, maxTokens: 2 });
  return { ...environment, evaluate: async () => JSON.parse("{accuracy") }; // THROWS
}
`,
};

describe("selfplay train: what a user's own function threw reaches them, with its class, message and line (real engine)", () => {
  let folder: string;
  let modelPath: string;
  let config: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-user-errors-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ sequences: 4, evaluateEvery: 0 }));
  });

  /** Writes the case's module and trains on it; `line` is the number of its `// THROWS` line. */
  async function train(name: string, ...flags: string[]) {
    const source = MODULES[name] as string;
    const module = join(folder, `${name}.js`);
    await writeFile(module, source);
    const line = source.split("\n").findIndex((text) => text.includes("// THROWS")) + 1;
    return { module, line, ...(await runCli(["train", "--env", module, "--model", modelPath, "--config", config, "--steps", "1", "--out", join(folder, `run-${name}-${flags.length}`), ...flags])) };
  }

  /** Stack frames printed, and those of selfplay's own files among them. */
  const frames = (stderr: string) => stderr.split("\n").filter((text) => /^\s+at /.test(text));
  const selfplayFrames = (stderr: string) => frames(stderr).filter((text) => text.includes(`${ROOT}/src/`) || text.includes(`${ROOT}/dist/`));

  it("a dataset reward function throwing a TypeError: the RewardFunctionError, then its cause with the user's file:line, and no selfplay frame", async () => {
    const { module, line, code, stderr } = await train("reward-function");
    expect(code, stderr).toBe(1);
    const message = "Cannot read properties of undefined (reading 'length')";
    expect(stderr).toContain(`error: RewardFunctionError: reward function "short" threw: ${message}\n  cause: TypeError: ${message}\n    at short (${module}:${line}:`);
    expect(stderr).toContain("(run again with --verbose for the stack)\n");
    expect(frames(stderr)).toHaveLength(1);
    expect(selfplayFrames(stderr)).toEqual([]);
  });

  it("with --verbose, the stacks: selfplay's frames (the rubric that called the function) and the TypeError's own", async () => {
    const { module, line, code, stderr } = await train("reward-function", "--verbose");
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/^error: RewardFunctionError: reward function "short" threw: .*\n\s+at scoreRubric \(/m);
    expect(selfplayFrames(stderr).some((text) => text.includes(`${ROOT}/src/tasks/dataset/dataset-rubric.ts:`))).toBe(true);
    expect(stderr).toContain(`  cause: TypeError: Cannot read properties of undefined (reading 'length')\n    at short (${module}:${line}:`);
    expect(stderr).not.toContain("--verbose for the stack");
  });

  it("an environment factory throwing: exit 2, the EnvironmentModuleError's message, then the TypeError with its file:line", async () => {
    const { module, line, code, stderr } = await train("factory");
    expect(code, stderr).toBe(2);
    const message = "Cannot read properties of undefined (reading 'trim')";
    expect(stderr).toContain(`error: environment ${module}: createEnvironment threw: ${message}\n  cause: TypeError: ${message}\n    at createEnvironment (${module}:${line}:`);
    expect(selfplayFrames(stderr)).toEqual([]);
  });

  it("evaluate() throwing: exit 2 naming the module and the error, then the SyntaxError with the user's file:line", async () => {
    const { module, line, code, stderr } = await train("evaluate");
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(new RegExp(`^error: environment ${module.replace(/[.\\/]/g, "\\$&")}: evaluate\\(\\) threw SyntaxError: .*; fix its evaluate \\(the cause below is its own error\\)\\n  cause: SyntaxError: .*\\n    at Object\\.evaluate \\(${module.replace(/[.\\/]/g, "\\$&")}:${line}:`, "m"));
    expect(selfplayFrames(stderr)).toEqual([]);
  });
});
