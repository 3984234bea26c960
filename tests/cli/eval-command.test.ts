import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { formatEvaluationFigures } from "../../src/cli/format-evaluation-figures.js";
import { main } from "../../src/cli/program.js";
import { bundledArithmeticBase } from "../../src/inference/model-files/bundled-models.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { createTrainableAdapter } from "../../src/training/tfjs/lora/create-trainable-adapter.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe("selfplay eval (real engine)", () => {
  let folder: string;
  let modelPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-eval-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
  });

  it("scores held-out problems drawn with a seed, greedy and pass@k, per cluster", async () => {
    const argv = ["eval", "--model", modelPath, "--task", "arithmetic", "--n", "12", "--seed", "4", "--samples", "2", "--sequences", "4", "--json"];
    const { code, stdout, stderr } = await runCli(argv);
    // Nothing but the device line (auto: the CPU here).
    expect(stderr).toMatch(/^device: CPU \(.*\) — auto: ggml found no GPU\nengine: \d+-token context a sequence \(.*\), \d+ decode thread\(s\) \(.*\)\n$/);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { heldOutAccuracy: number; n: number; correct: number; passAtK: { k: number; value: number }; byCluster: Record<string, { n: number }> };
    expect(result.n).toBe(12);
    expect(result.heldOutAccuracy).toBe(result.correct / 12);
    expect(result.passAtK.k).toBe(2);
    expect(result.passAtK.value).toBeGreaterThanOrEqual(0);
    expect(Object.values(result.byCluster).reduce((sum, cluster) => sum + cluster.n, 0)).toBe(12);
    expect((await runCli(argv)).stdout).toBe(stdout);
  });

  it("reads a problems file, and names the line of a bad one", async () => {
    const problems = join(folder, "problems.jsonl");
    await writeFile(problems, '{"problem": "2+2", "answer": "4"}\n{"problem": "9-12", "answer": -3}\n');
    const { code, stdout } = await runCli(["eval", "--model", modelPath, "--problems", problems, "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).n).toBe(2);
    const bad = join(folder, "bad.jsonl");
    await writeFile(bad, '{"problem": "2+2"}\n{"problem": "1+1", "answer": "2"}\n');
    const failure = await runCli(["eval", "--model", modelPath, "--problems", bad]);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/bad\.jsonl:1/);
  });
});

/** What `--env … --json` prints. */
interface EnvironmentEvalJson {
  environment: string;
  model: string;
  lora?: string;
  heldOutAccuracy: number;
  n: number;
  passAtK?: { k: number; value: number };
  figures?: Record<string, number>;
}

describe("selfplay eval --env (real engine, the bundled base)", () => {
  let folder: string;

  /** A config file as `selfplay train --config` takes it, the environment's options under `environment`. */
  async function configFile(name: string, environment: Record<string, unknown>): Promise<string> {
    const path = join(folder, `${name}.json`);
    await writeFile(path, JSON.stringify({ environment }));
    return path;
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-eval-env-"));
  });

  it("exact-match: greedy accuracy on the held-out questions the config sizes, pass@k with --samples, on the bundled base by default", async () => {
    const config = await configFile("exact-match", { evaluateQuestions: 8 });
    const greedy = await runCli(["eval", "--env", "exact-match", "--config", config, "--json"]);
    expect(greedy.stderr).toMatch(/^device: CPU \(.*\) — auto: ggml found no GPU\nengine: \d+-token context a sequence \(.*\), \d+ decode thread\(s\) \(.*\)\n$/);
    expect(greedy.code).toBe(0);
    const result = JSON.parse(greedy.stdout) as EnvironmentEvalJson;
    expect(Object.keys(result)).toEqual(["environment", "model", "heldOutAccuracy", "n", "figures"]);
    expect(result).toMatchObject({ environment: "exact-match", model: bundledArithmeticBase(), n: 8 });
    // The dataset environment's own figures of the evaluation.
    expect(Object.keys(result.figures ?? {})).toEqual(["truncated", "medianCompletionTokens"]);
    expect(Number.isInteger(result.heldOutAccuracy * 8)).toBe(true);
    const sampled = await runCli(["eval", "--env", "exact-match", "--config", config, "--samples", "3", "--seed", "5", "--json"]);
    expect(sampled.code).toBe(0);
    const withPassAtK = JSON.parse(sampled.stdout) as EnvironmentEvalJson;
    // The greedy pass is the same with or without samples; the samples are seeded, so a rerun prints the same.
    expect(withPassAtK).toMatchObject({ heldOutAccuracy: result.heldOutAccuracy, n: 8, passAtK: { k: 3 }, figures: result.figures });
    expect(Number.isInteger(withPassAtK.passAtK!.value * 8)).toBe(true);
    expect((await runCli(["eval", "--env", "exact-match", "--config", config, "--samples", "3", "--seed", "5", "--json"])).stdout).toBe(sampled.stdout);
    const text = await runCli(["eval", "--env", "exact-match", "--config", config, "--samples", "3", "--seed", "5"]);
    expect(text.stdout).toBe(
      `exact-match: held-out evaluation ${(100 * result.heldOutAccuracy).toFixed(1)}% (n=8), pass@3 ${(100 * withPassAtK.passAtK!.value).toFixed(1)}%${formatEvaluationFigures(result.figures)} — ${bundledArithmeticBase()}\n`,
    );
  });

  it("arithmetic: the environment's held-out draw is --task arithmetic's --n draw at seed 0, so both print the same figures", async () => {
    const config = await configFile("arithmetic", { evaluateProblems: 12 });
    const environment = await runCli(["eval", "--env", "arithmetic", "--config", config, "--samples", "2", "--json"]);
    expect(environment.code).toBe(0);
    const task = await runCli(["eval", "--task", "arithmetic", "--model", bundledArithmeticBase(), "--n", "12", "--samples", "2", "--json"]);
    expect(task.code).toBe(0);
    const expected = JSON.parse(task.stdout) as { heldOutAccuracy: number; n: number; passAtK: { k: number; value: number } };
    expect(JSON.parse(environment.stdout)).toEqual({ environment: "arithmetic", model: bundledArithmeticBase(), heldOutAccuracy: expected.heldOutAccuracy, n: 12, passAtK: expected.passAtK });
  });

  it("tournament, riddles, dream and tic-tac-toe: each environment's own figure, greedy only, at the context the environment asks for", async () => {
    const cases: { name: string; options: Record<string, unknown>; n: (n: number) => boolean }[] = [
      { name: "tournament", options: { rounds: 1, citizens: 3, evaluateEpisodes: 2 }, n: (n) => n === 2 },
      // n is the valid riddles, the band share's denominator.
      { name: "riddles", options: { evaluateEpisodes: 2, solvers: 2, waveSize: 2 }, n: (n) => n >= 0 && n <= 2 },
      // contextSize 2048: a dream prompt (~500 tokens) fits, so each held-out challenge is an attempt.
      { name: "dream", options: { clusters: ["algorithms"], evaluateChallengesPerCluster: 1, maxTokens: 16 }, n: (n) => n === 1 },
      // 2 games in each seat against each fixed player.
      { name: "tic-tac-toe", options: { evaluateGames: 2 }, n: (n) => n === 8 },
    ];
    for (const { name, options, n } of cases) {
      const { code, stdout, stderr } = await runCli(["eval", "--env", name, "--config", await configFile(name, options), "--json"]);
      expect({ name, code, stderr }).toMatchObject({ name, code: 0 });
      const result = JSON.parse(stdout) as EnvironmentEvalJson;
      expect(result.environment).toBe(name);
      expect(n(result.n)).toBe(true);
      expect(result.heldOutAccuracy).toBeGreaterThanOrEqual(0);
      expect(result.heldOutAccuracy).toBeLessThanOrEqual(1);
      expect(result.passAtK).toBeUndefined();
    }
  });

  it("dataset: --data FILE is the environment's data option, its held-out rows greedily scored by its first reward function; --data with --task is refused", async () => {
    const data = join(folder, "succ.jsonl");
    await writeFile(data, Array.from({ length: 40 }, (_, index) => JSON.stringify({ prompt: `${index + 10}+1=`, answer: String(index + 11) })).join("\n"));
    const { code, stdout, stderr } = await runCli(["eval", "--env", "dataset", "--data", data, "--config", await configFile("dataset", { heldOut: 0.25, evaluateItems: 8, maxTokens: 4 }), "--json"]);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as EnvironmentEvalJson;
    expect([result.environment, result.n]).toEqual(["dataset", 8]);
    expect(Number.isInteger(result.heldOutAccuracy * 8)).toBe(true);
    const refused = await runCli(["eval", "--task", "arithmetic", "--data", data]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--data.*no --data with --task/);
  });

  it("--lora: an adapter over the model, named in the output; a fresh one (B = 0) scores as the base", async () => {
    const config = await configFile("exact-match-lora", { evaluateQuestions: 4 });
    const adapter = join(folder, "fresh.lora.gguf");
    await createTrainableAdapter({ modelPath: bundledArithmeticBase(), path: adapter });
    const base = JSON.parse((await runCli(["eval", "--env", "exact-match", "--config", config, "--json"])).stdout) as EnvironmentEvalJson;
    const adapted = await runCli(["eval", "--env", "exact-match", "--config", config, "--lora", adapter, "--json"]);
    expect(adapted.code).toBe(0);
    expect(JSON.parse(adapted.stdout)).toEqual({ ...base, lora: adapter });
  });

  it("tic-tac-toe --against: the policy against the base and a run folder's policies, each in each seat, beside the fixed players", async () => {
    const config = await configFile("tic-tac-toe-against", { evaluateGames: 2 });
    const run = join(folder, "league-run");
    await mkdir(join(run, "policies"), { recursive: true });
    await createTrainableAdapter({ modelPath: bundledArithmeticBase(), path: join(run, "policies", "policy-v1.lora.gguf") });
    const { code, stdout, stderr } = await runCli(["eval", "--env", "tic-tac-toe", "--config", config, "--against", "base", "--against", run, "--json"]);
    expect(code, stderr).toBe(0);
    const { n, figures } = JSON.parse(stdout) as EnvironmentEvalJson;
    // n is the fixed players' games; each opponent's are its own figures.
    expect(n).toBe(8);
    const league = Object.keys(figures!).filter((key) => key.startsWith("league."));
    expect([...new Set(league.map((key) => key.split(".")[1]))]).toEqual(["base", "v1"]);
    for (const name of ["base", "v1"]) {
      for (const seat of ["x", "o"]) expect(["win", "draw", "loss"].reduce((sum, result) => sum + figures![`league.${name}.${seat}.${result}`]!, 0)).toBeCloseTo(1, 12);
      // Under the grammar neither side can name an occupied cell.
      expect([figures![`league.${name}.forfeits`], figures![`league.${name}.opponentForfeits`]]).toEqual([0, 0]);
    }
  });

  it("a module's environment: its evaluate gets the samples it declares it can take", async () => {
    const module = join(folder, "counting-environment.js");
    await writeFile(
      module,
      `export const createEpisodes = () => [];
export function createEnvironment() {
  return {
    name: "counting",
    episodes: { module: import.meta.url, exportName: "createEpisodes" },
    stores: {},
    plan: [{ episodeType: "echo", count: 1 }],
    evaluatesPassAtK: true,
    evaluate: async (client, options = {}) => ({ heldOutAccuracy: client.capabilities.parallelSequences / 10, n: 10, ...(options.samples && { passAtK: { k: options.samples, value: options.seed / 10 } }) }),
  };
}
`,
    );
    const { code, stdout } = await runCli(["eval", "--env", module, "--sequences", "3", "--samples", "4", "--seed", "7", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ environment: "counting", model: bundledArithmeticBase(), heldOutAccuracy: 0.3, n: 10, passAtK: { k: 4, value: 0.7 } });
  });
});

describe("selfplay eval --env: what it refuses, exit 2 before a model loads", () => {
  it.each([
    { argv: ["--env", "debate"], message: /--env: got "debate"; expected an environment with a held-out evaluation; the debate environment has no held-out evaluation/ },
    { argv: ["--env", "proposer-solver"], message: /the proposer-solver environment has no held-out evaluation/ },
    { argv: ["--env", "no-such-environment"], message: /environment no-such-environment: no such built-in environment; give one of arithmetic, / },
    { argv: ["--env", "tournament", "--samples", "2"], message: /--samples: got 2; expected 0 \(greedy only\): the tournament environment's evaluation has no pass@k/ },
    { argv: ["--env", "riddles", "--samples", "2"], message: /--samples: .*the riddles environment's evaluation has no pass@k/ },
    { argv: ["--env", "exact-match", "--task", "arithmetic"], message: /--task: got "arithmetic"; expected no --task with --env/ },
    { argv: ["--env", "arithmetic", "--problems", "problems.jsonl"], message: /--problems: .*expected no --problems with --env/ },
    { argv: ["--env", "arithmetic", "--n", "5"], message: /--n: got 5; expected no --n with --env/ },
    { argv: ["--task", "arithmetic", "--config", "config.json"], message: /--config: .*expected no --config with --task/ },
    { argv: ["--env", "exact-match", "--against", "base"], message: /--against: got "base"; expected no --against: the exact-match environment's evaluation plays no opponents/ },
    { argv: ["--task", "arithmetic", "--against", "base"], message: /--against: got "base"; expected no --against with --task/ },
    { argv: ["--env", "tic-tac-toe", "--against", "no-such.gguf"], message: /--against: got "no-such\.gguf"; expected "base", a GGUF model or LoRA adapter file/ },
    { argv: ["--env", "tic-tac-toe", "--against", "src"], message: /--against: got "src"; expected .*src holds no policy-v<N>\.lora\.gguf/ },
    { argv: ["--env", "tic-tac-toe", "--against", "base", "--against", "base"], message: /--against: got "base"; expected opponent names .*two opponents are named "base"/ },
  ])("eval $argv", async ({ argv, message }) => {
    const { code, stdout, stderr } = await runCli(["eval", ...argv]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/device:/);
  });

  it("names the config file of a misspelt environment option", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-eval-config-"));
    const config = join(folder, "typo.json");
    await writeFile(config, JSON.stringify({ environment: { evaluateQuestion: 4 } }));
    const { code, stderr } = await runCli(["eval", "--env", "exact-match", "--config", config]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/typo\.json: .*environment\.evaluateQuestion/);
  });
});
