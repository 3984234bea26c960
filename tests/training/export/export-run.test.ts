import { mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GenerateResultSchema } from "../../../src/core/schemas/generate-result.js";
import { exportRun } from "../../../src/training/export/export-run.js";
import { EXPORT_RESULTS, MESSAGES_TYPE, PROPOSE, ask, assistant, jsonl } from "./export-fixture.js";
import { readParquetWithArrow } from "./read-parquet-with-arrow.js";

describe("exportRun: each format, read back by parquet-wasm and apache-arrow", () => {
  let folder: string;
  let run: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-export-"));
    run = join(folder, "run");
    await mkdir(run);
    await writeFile(join(run, "rollouts.jsonl"), jsonl(EXPORT_RESULTS));
  });

  it("trajectories: the result trees with a scored rollout, one a line, as GenerateResultSchema parses them", async () => {
    const out = join(folder, "trajectories");
    const summary = await exportRun({ run, format: "trajectories", out });
    expect(summary).toEqual({ format: "trajectories", file: join(out, "train.jsonl"), rows: 3, skipped: { unscoredTrees: 1 }, tornFiles: [] });
    const kept = [EXPORT_RESULTS[0], EXPORT_RESULTS[1], EXPORT_RESULTS[3]].map((result) => JSON.stringify(GenerateResultSchema.parse(result)));
    expect((await readFile(summary.file, "utf8")).split("\n")).toEqual([...kept, ""]);
    expect(await readdir(out)).toEqual(["train.jsonl"]);
  });

  it("trl-sft: conversational prompt/completion of every Step whose role's reward is above 0", async () => {
    const summary = await exportRun({ run, format: "trl-sft", out: join(folder, "sft") });
    expect(summary.skipped).toEqual({ failedRollouts: 1, unrewardedSteps: 0, otherRoleSteps: 0, unsuccessfulSteps: 3 });
    const { columns, rows, metadata } = await readParquetWithArrow(summary.file);
    expect(columns).toEqual([`prompt: ${MESSAGES_TYPE}`, `completion: ${MESSAGES_TYPE}`]);
    expect(metadata.get("selfplay.format")).toBe("trl-sft");
    // Depth first: a proposal, then its solvers.
    expect(rows).toEqual([
      { prompt: PROPOSE, completion: assistant("2+2") },
      { prompt: ask("2+2="), completion: assistant("4") },
      { prompt: ask("2+2="), completion: assistant(" 4") },
      { prompt: PROPOSE, completion: assistant("3+3") },
      { prompt: ask("7+1="), completion: assistant("8") },
    ]);
    expect(summary.rows).toBe(5);
    // --role keeps one role's Steps.
    const solver = await exportRun({ run, format: "trl-sft", out: join(folder, "sft-solver"), role: "solver" });
    expect(solver.skipped).toMatchObject({ otherRoleSteps: 2 });
    expect((await readParquetWithArrow(solver.file)).rows.map((row) => row["completion"])).toEqual([assistant("4"), assistant(" 4"), assistant("8")]);
  });

  it("trl-dpo: per group, role and prompt, the best Step chosen and the worst rejected; single Steps and ties give no pair", async () => {
    const summary = await exportRun({ run, format: "trl-dpo", out: join(folder, "dpo") });
    expect(summary.skipped).toEqual({ failedRollouts: 1, unrewardedSteps: 0, otherRoleSteps: 0, singleStepRankings: 3, tiedRankings: 1 });
    const { columns, rows } = await readParquetWithArrow(summary.file);
    expect(columns).toEqual([`prompt: ${MESSAGES_TYPE}`, `chosen: ${MESSAGES_TYPE}`, `rejected: ${MESSAGES_TYPE}`]);
    // "4" and " 4" tie for best: the first in file order is chosen.
    expect(rows).toEqual([{ prompt: ask("2+2="), chosen: assistant("4"), rejected: assistant("5") }]);
  });

  it("trl-kto: every scored Step, labelled by whether its role's reward is above 0", async () => {
    const summary = await exportRun({ run, format: "trl-kto", out: join(folder, "kto") });
    const { columns, rows } = await readParquetWithArrow(summary.file);
    expect(columns).toEqual([`prompt: ${MESSAGES_TYPE}`, `completion: ${MESSAGES_TYPE}`, "label: Bool"]);
    expect(rows.map((row) => [(row["completion"] as { content: string }[])[0]?.content, row["label"]])).toEqual([
      ["2+2", true],
      ["4", true],
      ["5", false],
      [" 4", true],
      ["3+3", true],
      ["7", false],
      ["5", false],
      ["8", true],
    ]);
    expect(rows[1]).toEqual({ prompt: ask("2+2="), completion: assistant("4"), label: true });
  });

  it("verl: one row per distinct prompt with its ground truth, data_source, ability, reward_model and extra_info", async () => {
    const summary = await exportRun({ run, format: "verl", out: join(folder, "verl") });
    expect(summary.skipped).toEqual({ failedRollouts: 1, unrewardedSteps: 0, otherRoleSteps: 0, rolloutsWithoutGroundTruth: 2 });
    const { columns, rows } = await readParquetWithArrow(summary.file);
    expect(columns).toEqual([
      "data_source: Utf8",
      `prompt: ${MESSAGES_TYPE}`,
      "ability: Utf8",
      "reward_model: Struct<{style:Utf8, ground_truth:Utf8}>",
      "extra_info: Struct<{split:Utf8, index:Int64, role_id:Utf8, rollout_id:Utf8, group_id:Utf8, rollouts:Int64, mean_reward:Float64}>",
    ]);
    const row = (index: number, question: string, truth: string, first: string, group: string, rollouts: number, meanReward: number) => ({
      data_source: "selfplay/solve",
      prompt: ask(question),
      ability: "solve",
      reward_model: { style: "rule", ground_truth: truth },
      extra_info: { split: "train", index, role_id: "solver", rollout_id: first, group_id: group, rollouts, mean_reward: meanReward },
    });
    expect(rows).toEqual([row(0, "2+2=", "4", "ep0.0", "ep0/solve", 3, 2 / 3), row(1, "3+3=", "6", "ep1.0", "ep1/solve", 2, 0), row(2, "7+1=", "8", "ep3", "ep3", 1, 1)]);
  });

  it("trl-prm: one row per labelled trajectory, each prefix's addition a step, labelled by label > 0", async () => {
    const labels = join(folder, "labels.jsonl");
    const state = (task: string, prefix: string, label: number) => ({ task, cluster: "sums", prefix, label });
    await writeFile(
      labels,
      jsonl([
        state("2+2=", "", 1),
        state("2+2=", "4", 1),
        state("2+2=", "", 0.5),
        state("2+2=", "1", 0.5),
        state("2+2=", "12", 0),
        // A byte-level prefix that cut "é" in two: the next prefix does not extend it, so it joins the next step.
        state("3+3=", "", 0),
        state("3+3=", "6", 0.25),
        state("3+3=", "6\uFFFD", 0),
        state("3+3=", "6é", 0),
      ]),
    );
    const summary = await exportRun({ run, format: "trl-prm", out: join(folder, "prm"), labels });
    expect(summary.skipped).toEqual({ emptyTrajectories: 0, mergedPrefixes: 1 });
    const { columns, rows } = await readParquetWithArrow(summary.file);
    expect(columns).toEqual(["prompt: Utf8", "completions: List<Utf8>", "labels: List<Bool>"]);
    expect(rows).toEqual([
      { prompt: "2+2=", completions: ["4"], labels: [true] },
      { prompt: "2+2=", completions: ["1", "2"], labels: [true, false] },
      { prompt: "3+3=", completions: ["6", "é"], labels: [true, false] },
    ]);
    // Labels of another run's task are refused, naming the line.
    const foreign = join(folder, "foreign-labels.jsonl");
    await writeFile(foreign, jsonl([state("2+2=", "", 1), state("2+2=", "4", 1), state("9+9=", "", 1), state("9+9=", "18", 1)]));
    await expect(exportRun({ run, format: "trl-prm", out: join(folder, "prm-foreign"), labels: foreign })).rejects.toThrow(
      /foreign-labels\.jsonl:3: expected labelled states of this run's own rollouts \(selfplay prm label --trajectories .*run\/rollouts\.jsonl\); the task "9\+9=" is not one/,
    );
  });
});

