import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { CorruptJsonlError, InvalidInputError, PrmModelError } from "../../src/core/errors.js";
import { registerPrmCommands } from "../../src/cli/commands/prm-command.js";
import { PrmMetadataSchema } from "../../src/curriculum/prm/prm-metadata.js";
import { OnnxPrmScorer } from "../../src/curriculum/prm/onnx-prm-scorer.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { syntheticPrmExamples } from "../trainers/prm/synthetic-prm-examples.js";

/** Runs `selfplay prm …` as program.ts would once the command is registered there; errors propagate. */
async function runPrm(argv: string[]) {
  let stdout = "";
  let stderr = "";
  let code = 0;
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), isTerminal: false };
  const program = new Command("selfplay").exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerPrmCommands(program, { io, now: () => new Date(0), setExitCode: (exitCode) => (code = exitCode) });
  await program.parseAsync(["prm", ...argv], { from: "user" });
  return { code, stdout, stderr };
}

const jsonl = (records: readonly object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join("");
const SMALL = ["--dimensions", "128", "--hidden", "16", "--batch-size", "32", "--learning-rate", "0.01", "--backend", "cpu"];

describe("selfplay prm", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-prm-cli-"));
    const examples = syntheticPrmExamples(400, "cli");
    await writeFile(join(folder, "labels-1.jsonl"), jsonl(examples.slice(0, 200)));
    await writeFile(join(folder, "labels-2.jsonl"), jsonl(examples.slice(200)));
    await writeFile(join(folder, "states.jsonl"), jsonl(examples.slice(0, 5).map(({ task, cluster, prefix }) => ({ task, cluster, prefix }))));
  });

  it("trains on every file the glob names, writes prm.onnx and prm.json, prints the held-out metrics", async () => {
    const out = join(folder, "prm");
    const { code, stdout, stderr } = await runPrm(["train", "--trajectories", join(folder, "labels-*.jsonl"), "--out", out, "--epochs", "6", ...SMALL, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const metrics = JSON.parse(stdout) as Record<string, number>;
    expect(Object.keys(metrics)).toEqual(["auc", "brier", "ece", "n", "baselineAuc"]);
    expect(metrics.auc).toBeGreaterThan(0.95);
    expect(metrics.auc).toBeGreaterThan(metrics.baselineAuc as number);
    const metadata = PrmMetadataSchema.parse(JSON.parse(await readFile(join(out, "prm.json"), "utf8")));
    expect(metadata.training.examples).toBe(400);
    expect(metadata.training.heldOut.n).toBe(metrics.n);
    expect(metadata.featuriser).toEqual({ kind: "hashed-ngram", dimensions: 128, maxNgram: 3 });

    const scored = await runPrm(["score", "--model", out, "--input", join(folder, "states.jsonl")]);
    expect(scored.code).toBe(0);
    const lines = scored.stdout.trimEnd().split("\n").map(Number);
    expect(lines).toHaveLength(5);
    const scorer = await OnnxPrmScorer.load(out);
    const states = (await readFile(join(folder, "states.jsonl"), "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines).toEqual(await scorer.score(states));
    await scorer.dispose();

    // Human-readable form.
    const human = await runPrm(["train", "--trajectories", join(folder, "labels-1.jsonl"), "--out", join(folder, "prm-human"), "--epochs", "1", ...SMALL]);
    expect(human.stdout).toMatch(/^PRM trained on \d+ states from 1 file\(s\) \(cpu \(@tensorflow\/tfjs\)\) → .*\nheld-out \(n=\d+\): AUC \d\.\d{4} \(per-cluster prior \d\.\d{4}\), Brier/);
  });

  it("fine-tunes an existing PRM with --from, keeping its featuriser and shape", async () => {
    const base = join(folder, "base");
    await runPrm(["train", "--trajectories", join(folder, "labels-1.jsonl"), "--out", base, "--epochs", "2", ...SMALL]);
    const tuned = join(folder, "tuned");
    const { code } = await runPrm(["train", "--trajectories", join(folder, "labels-2.jsonl"), "--out", tuned, "--from", base, "--epochs", "2", "--dimensions", "64", "--hidden", "4", "--backend", "cpu", "--json"]);
    expect(code).toBe(0);
    const metadata = PrmMetadataSchema.parse(JSON.parse(await readFile(join(tuned, "prm.json"), "utf8")));
    expect(metadata.training.from).toBe(base);
    expect(metadata.network).toMatchObject({ inputDimensions: 128, hiddenDimensions: 16 });
    await expect(runPrm(["train", "--trajectories", join(folder, "labels-2.jsonl"), "--out", tuned, "--from", join(folder, "nowhere")])).rejects.toThrow(PrmModelError);
  });

  it("names the flag or line at fault", async () => {
    await expect(runPrm(["train", "--trajectories", join(folder, "*.csv"), "--out", join(folder, "x")])).rejects.toThrow(/trajectories: got .*expected a glob that names at least one/);
    await expect(runPrm(["train", "--trajectories", join(folder, "labels-1.jsonl"), "--out", join(folder, "x"), "--held-out", "2"])).rejects.toThrow(/--held-out: got "2"; expected a number from 0 to 0.9/);
    await expect(runPrm(["train", "--out", join(folder, "x")])).rejects.toThrow(InvalidInputError);
    const bad = join(folder, "bad-states.jsonl");
    await writeFile(bad, '{"task": "1+1", "prefix": ""}\n');
    await expect(runPrm(["score", "--model", join(folder, "prm"), "--input", bad])).rejects.toThrow(CorruptJsonlError);
  });

  it("trains on the policy model's embeddings with --policy, and scores with them (real engine)", async () => {
    const model = await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 7 });
    const out = join(folder, "embedding-prm");
    const { code, stdout } = await runPrm(["train", "--trajectories", join(folder, "labels-1.jsonl"), "--out", out, "--policy", model.path, "--epochs", "1", "--hidden", "8", "--backend", "cpu", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).n).toBeGreaterThan(0);
    const metadata = PrmMetadataSchema.parse(JSON.parse(await readFile(join(out, "prm.json"), "utf8")));
    expect(metadata.featuriser).toMatchObject({ kind: "embedding", model: model.path });
    const scored = await runPrm(["score", "--model", out, "--input", join(folder, "states.jsonl")]);
    const scores = scored.stdout.trimEnd().split("\n").map(Number);
    expect(scores).toHaveLength(5);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0);
    await expect(OnnxPrmScorer.load(out)).rejects.toThrow(/reads embeddings of .*tiny\.gguf; load that model/);
  });
});
