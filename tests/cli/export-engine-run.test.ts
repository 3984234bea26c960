import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readJsonl } from "../../src/core/jsonl/read-jsonl.js";
import { GenerateResultSchema, type GenerateResult } from "../../src/core/schemas/generate-result.js";
import type { Messages } from "../../src/core/schemas/message.js";
import type { Step } from "../../src/core/schemas/step.js";
import { readCodeBlocks } from "../docs/code-block-markers.js";
import { runCli } from "../helpers/run-cli.js";
import { readParquetWithArrow } from "../training/export/read-parquet-with-arrow.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const BASE_MODEL = join(ROOT, "models", "selfplay-arithmetic-base.gguf");

interface PlayedStep {
  result: GenerateResult;
  step: Step;
  reward: number;
}

/** Every Step of the scored rollouts in the trees, depth first, with its role's reward. */
function playedSteps(results: readonly GenerateResult[]): PlayedStep[] {
  const steps: PlayedStep[] = [];
  const visit = (result: GenerateResult) => {
    if (result.outcome.status === "scored") for (const step of result.rollout.steps) steps.push({ result, step, reward: result.rewards[step.roleId] as number });
    for (const child of result.children) visit(child);
  };
  for (const result of results) visit(result);
  return steps;
}

/** The true answer of an arithmetic solver prompt (`23+45=`), computed here. */
function trueAnswer(prompt: Messages): string {
  const match = /(\d+)([+-])(\d+)=$/.exec(prompt[prompt.length - 1]?.content ?? "");
  if (!match) throw new Error(`not a solver prompt: ${JSON.stringify(prompt)}`);
  const [left, right] = [Number(match[1]), Number(match[3])];
  return String(match[2] === "+" ? left + right : left - right);
}

describe("selfplay export of a real run (the bundled arithmetic base on the engine)", () => {
  let folder: string;
  let run: string;
  let results: GenerateResult[];
  let steps: PlayedStep[];
  const exported = async (format: string, ...flags: string[]) => {
    const out = join(folder, format);
    const { code, stdout, stderr } = await runCli(["export", "--run", run, "--format", format, "--out", out, "--json", ...flags]);
    expect(code, stderr).toBe(0);
    return JSON.parse(stdout) as { file: string; rows: number; skipped: Record<string, number> };
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-export-engine-"));
    run = join(folder, "run");
    // Proposals of problems, each answered by 4 solver sub-episodes sharing a group.
    const played = await runCli(["run", "arithmetic", "--model", BASE_MODEL, "--count", "8", "--seed", "1", "--workers", "0", "--device", "cpu", "--out", run]);
    expect(played.code, played.stderr).toBe(0);
    results = (await readJsonl(join(run, "rollouts.jsonl"), GenerateResultSchema)).records;
    steps = playedSteps(results);
  }, 300_000);

  it("the run has what every format needs: solvers that split, ground truths", () => {
    const solvers = steps.filter(({ step }) => step.roleId === "solver");
    expect(solvers.length).toBeGreaterThan(4);
    expect(new Set(solvers.map(({ reward }) => reward))).toEqual(new Set([0, 1]));
  });

  it("trajectories: every line of the run with a scored rollout, byte for byte as the run wrote it", async () => {
    const summary = await exported("trajectories");
    const hasScored = (result: GenerateResult): boolean => result.outcome.status === "scored" || result.children.some(hasScored);
    const lines = (await readFile(join(run, "rollouts.jsonl"), "utf8")).split("\n").slice(0, -1);
    expect(summary.skipped).toEqual({ unscoredTrees: results.filter((result) => !hasScored(result)).length });
    expect(await readFile(summary.file, "utf8")).toBe(lines.filter((_, index) => hasScored(results[index] as GenerateResult)).map((line) => `${line}\n`).join(""));
  });

  it("trl-sft and trl-kto: the run's Steps, with their prompts and completions, successes and labels", async () => {
    const sft = await readParquetWithArrow((await exported("trl-sft")).file);
    const successes = steps.filter(({ reward }) => reward > 0);
    expect(sft.rows).toEqual(successes.map(({ step }) => ({ prompt: step.prompt, completion: step.completion })));
    const kto = await readParquetWithArrow((await exported("trl-kto", "--role", "solver")).file);
    const solvers = steps.filter(({ step }) => step.roleId === "solver");
    expect(kto.rows).toEqual(solvers.map(({ step, reward }) => ({ prompt: step.prompt, completion: step.completion, label: reward > 0 })));
  });

  it("trl-dpo: each pair from one solver group, the chosen answer right and the rejected wrong", async () => {
    const summary = await exported("trl-dpo", "--role", "solver");
    const { rows } = await readParquetWithArrow(summary.file);
    expect(rows.length).toBeGreaterThan(0);
    // The solver groups (one per valid proposal) whose rewards differ.
    const groupRewards = new Map<string, Set<number>>();
    for (const { result, reward } of steps.filter(({ step }) => step.roleId === "solver")) {
      groupRewards.set(result.rollout.groupId, (groupRewards.get(result.rollout.groupId) ?? new Set()).add(reward));
    }
    const mixedGroups = [...groupRewards.values()].filter((rewards) => rewards.size > 1);
    expect(rows).toHaveLength(mixedGroups.length);
    for (const row of rows) {
      const prompt = row["prompt"] as Messages;
      const answer = trueAnswer(prompt);
      expect((row["chosen"] as Messages)[0]?.content).toMatch(new RegExp(`^\\D*${answer}(?!\\d)`));
      expect((row["rejected"] as Messages)[0]?.content).not.toMatch(new RegExp(`^\\D*${answer}(?!\\d)`));
    }
  });

  it("verl: one row per problem the solvers played, its ground truth the problem's true answer", async () => {
    const summary = await exported("verl");
    const { rows } = await readParquetWithArrow(summary.file);
    const problems = new Set(steps.filter(({ step }) => step.roleId === "solver").map(({ step }) => JSON.stringify(step.prompt)));
    expect(rows).toHaveLength(problems.size);
    expect(summary.skipped["rolloutsWithoutGroundTruth"]).toBe(results.filter((result) => result.outcome.status === "scored").length);
    rows.forEach((row, index) => {
      const prompt = row["prompt"] as Messages;
      expect(row).toMatchObject({ data_source: "selfplay/arithmetic-solve", ability: "arithmetic-solve", reward_model: { style: "rule", ground_truth: trueAnswer(prompt) } });
      expect(row["extra_info"]).toMatchObject({ split: "train", index, role_id: "solver" });
    });
  });

  it("trl-prm: from selfplay prm label's states of this run, one row per solver attempt", async () => {
    const labels = join(folder, "labels.jsonl");
    const labelled = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--env", "arithmetic", "--out", labels, "--json"]);
    expect(labelled.code, labelled.stderr).toBe(0);
    const summary = await exported("trl-prm", "--labels", labels);
    const { rows } = await readParquetWithArrow(summary.file);
    const solvers = steps.filter(({ step }) => step.roleId === "solver");
    expect(rows.length + (summary.skipped["emptyTrajectories"] ?? 0)).toBe(solvers.length);
    for (const row of rows) {
      expect(row["prompt"]).toMatch(/^\d+[+-]\d+=$/);
      expect((row["labels"] as boolean[]).length).toBe((row["completions"] as string[]).length);
    }
  });
});

describe("docs/export.md's example", () => {
  it("runs as written (its runs/ and exports/ folders in a temporary one)", async () => {
    const blocks = readCodeBlocks(await readFile(join(ROOT, "docs/export.md"), "utf8")).filter((block) => block.marker?.kind === "run-by");
    expect(blocks).toHaveLength(1);
    const folder = await mkdtemp(join(tmpdir(), "selfplay-export-doc-"));
    const commands = (blocks[0]?.content ?? "").split("\n").filter((line) => line.trim() !== "");
    expect(commands.length).toBeGreaterThan(2);
    for (const command of commands) {
      const [program, ...words] = command.split(/\s+/);
      expect(program).toBe("selfplay");
      const argv = words.map((word) => (/^(runs|exports)\//.test(word) ? join(folder, word) : word.startsWith("models/") ? join(ROOT, word) : word));
      const { code, stderr } = await runCli(argv);
      expect(code, `${command}\n${stderr}`).toBe(0);
    }
    for (const file of ["exports/arith-dpo/train.parquet", "exports/arith-prm/train.parquet"]) expect((await readParquetWithArrow(join(folder, file))).rows.length).toBeGreaterThan(0);
  }, 300_000);
});
