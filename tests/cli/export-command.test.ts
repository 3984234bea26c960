import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/core/errors/index.js";
import type { GenerateResult } from "../../src/core/schemas/generate-result.js";
import { exportRun } from "../../src/training/export/export-run.js";
import { runCli } from "../helpers/run-cli.js";
import { EXPORT_RESULTS, jsonl } from "../training/export/export-fixture.js";

describe("selfplay export: the command, and bad input (exit 2, nothing written)", () => {
  let folder: string;
  let run: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-export-cli-"));
    run = join(folder, "run");
    await mkdir(run);
    // A torn last line, as a killed run leaves it.
    await writeFile(join(run, "rollouts.jsonl"), `${jsonl(EXPORT_RESULTS)}{"rollout": {"id": "ep4"`);
  });

  it("prints what it wrote and left out, or with --json the summary; warns of a torn last line", async () => {
    const out = join(folder, "dpo");
    const text = await runCli(["export", "--run", run, "--format", "trl-dpo", "--out", out]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe(`warning: ${join(run, "rollouts.jsonl")}: its last line is torn (an interrupted write) and was left out\n`);
    expect(text.stdout).toBe(`trl-dpo: 1 row(s) → ${join(out, "train.parquet")}; left out: 1 failed rollouts, 3 single step rankings, 1 tied rankings\n`);
    const json = await runCli(["export", "--run", run, "--format", "trl-kto", "--out", join(folder, "kto"), "--role", "solver", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      format: "trl-kto",
      file: join(folder, "kto", "train.parquet"),
      rows: 6,
      skipped: { failedRollouts: 1, unrewardedSteps: 0, otherRoleSteps: 2 },
      tornFiles: [join(run, "rollouts.jsonl")],
    });
  });

  it("refuses a missing run, an unknown format, a run without what the format needs and an occupied output, naming each", async () => {
    const out = join(folder, "never");
    const refused = async (argv: string[], message: RegExp) => {
      const { code, stdout, stderr } = await runCli(["export", ...argv]);
      expect(code, stderr).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    };
    await refused(["--run", join(folder, "nowhere"), "--format", "verl", "--out", out], /^error: --run: got ".*nowhere"; expected a run folder of selfplay train or selfplay run/);
    const empty = join(folder, "empty-run");
    await mkdir(empty);
    await refused(["--run", empty, "--format", "verl", "--out", out], /--run: got ".*empty-run"; expected a run folder with a rollouts\.jsonl .*empty-run\/rollouts\.jsonl does not exist/);
    await refused(["--run", run, "--format", "trl-ppo", "--out", out], /--format: got "trl-ppo"; expected one of: trajectories, trl-sft, trl-dpo, trl-kto, trl-prm, verl/);
    await refused(["--run", run, "--out", out], /--format: expected one of: trajectories/);
    await refused(["--run", run, "--format", "verl"], /--out: expected the folder to write the export into \(--out DIR\)/);
    await refused(["--run", run, "--format", "trl-prm", "--out", out], /--labels: expected the labelled states of this run for --format trl-prm/);
    await refused(["--run", run, "--format", "trl-prm", "--out", out, "--labels", join(folder, "no-labels.jsonl")], /--labels: got ".*no-labels\.jsonl"; expected the JSONL file of labelled states/);
    await refused(["--run", run, "--format", "verl", "--out", out, "--labels", "labels.jsonl"], /--labels: got "labels\.jsonl"; expected only with --format trl-prm/);
    await refused(["--run", run, "--format", "trajectories", "--out", out, "--role", "solver"], /--role: got "solver"; expected only with --format trl-sft, trl-dpo, trl-kto, verl/);
    await refused(["--run", run, "--format", "trl-sft", "--out", out, "--role", "critic"], /--role: got "critic"; expected a role with Steps in .*rollouts\.jsonl: one of proposer, solver/);

    // A run whose rollouts lack what the format needs: ground truth for verl, groups for DPO, a success for SFT.
    const lone = join(folder, "lone-run");
    await mkdir(lone);
    await writeFile(join(lone, "rollouts.jsonl"), jsonl([EXPORT_RESULTS[1] as GenerateResult, EXPORT_RESULTS[2] as GenerateResult].map((result) => ({ ...result, children: [] }))));
    await refused(["--run", lone, "--format", "verl", "--out", out], /lone-run\/rollouts\.jsonl \(--format verl\): expected scored rollouts whose episode records its ground truth as a string artifacts\.expected .*; its 1 scored rollout\(s\) \(propose\) have none/);
    await refused(["--run", lone, "--format", "trl-dpo", "--out", out], /\(--format trl-dpo\): expected a run with groups of two or more rollouts .*; it has 1 ranking\(s\): 1 of a single Step, 0 tied/);
    const misses = join(folder, "misses-run");
    await mkdir(misses);
    await writeFile(join(misses, "rollouts.jsonl"), jsonl((EXPORT_RESULTS[1] as GenerateResult).children));
    await refused(["--run", misses, "--format", "trl-sft", "--out", out], /misses-run\/rollouts\.jsonl \(--format trl-sft\): expected a run with at least one scored Step whose role's reward is above 0 \(a success to imitate\); its 2 scored Step\(s\) have none/);
    const failedOnly = join(folder, "failed-run");
    await mkdir(failedOnly);
    await writeFile(join(failedOnly, "rollouts.jsonl"), jsonl([EXPORT_RESULTS[2] as GenerateResult]));
    await refused(["--run", failedOnly, "--format", "trajectories", "--out", out], /\(--format trajectories\): expected a run with at least one scored rollout; its 1 line\(s\) hold none/);
    await refused(["--run", failedOnly, "--format", "trl-kto", "--out", out], /\(--format trl-kto\): expected a run with at least one scored Step with its role's reward; it has none \(1 failed rollout\(s\), 0 unrewarded Step\(s\)\)/);
    const corrupt = join(folder, "corrupt-run");
    await mkdir(corrupt);
    await writeFile(join(corrupt, "rollouts.jsonl"), `{"rollout": 3}\n${jsonl(EXPORT_RESULTS)}`);
    await refused(["--run", corrupt, "--format", "trl-kto", "--out", out], /corrupt-run\/rollouts\.jsonl:1: not a valid JSON line \(rollout: .*; expected one GenerateResult a line, as selfplay train and selfplay run write them\)/);

    // An output folder that already holds the file, or a file: refused, the file untouched.
    const taken = join(folder, "taken");
    expect((await runCli(["export", "--run", run, "--format", "verl", "--out", taken])).code).toBe(0);
    const before = await readFile(join(taken, "train.parquet"));
    const again = await runCli(["export", "--run", run, "--format", "trl-sft", "--out", taken]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--out: got ".*taken"; expected a folder without the file this export writes \(.*taken\/train\.parquet exists: choose another --out, or delete it\)/);
    expect(await readFile(join(taken, "train.parquet"))).toEqual(before);
    expect(await readdir(taken)).toEqual(["train.parquet"]);
    const file = join(folder, "a-file");
    await writeFile(file, "");
    expect((await runCli(["export", "--run", run, "--format", "verl", "--out", file])).stderr).toMatch(/--out: got ".*a-file"; expected a folder \(or a path to create one at\); it is a file/);
  });

  it("throws InvalidInputError to a library caller", async () => {
    await expect(exportRun({ run, format: "trl-prm", out: join(folder, "lib") })).rejects.toThrow(InvalidInputError);
    await expect(exportRun({ run, format: "bogus" as "verl", out: join(folder, "lib") })).rejects.toThrow(/--format: got "bogus"/);
  });
});
