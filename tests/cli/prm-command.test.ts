import { copyFile, mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { CorruptJsonlError, InvalidInputError } from "../../src/core/errors/index.js";
import { PrmModelError } from "../../src/frontier/errors/index.js";
import { registerPrmCommands } from "../../src/cli/commands/prm-command.js";
import { main } from "../../src/cli/program.js";
import { PrmExampleSchema } from "../../src/frontier/prm/prm-state.js";
import { PrmMetadataSchema } from "../../src/frontier/prm/prm-metadata.js";
import { OnnxPrmScorer } from "../../src/frontier/prm/onnx-prm-scorer.js";
import { createRandomLoraAdapter } from "../../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { Arena } from "../../src/arena/arena.js";
import { LlamaInferenceClient } from "../../src/inference/llama/llama-inference-client.js";
import { LABELLING_ENVIRONMENT_MODULE, QUIZ, createLabellingEpisodes, scriptedLabellingResults } from "../helpers/labelling-environment.js";
import { writeRunCheckpoint } from "../helpers/run-checkpoint.js";
import { syntheticPrmExamples } from "../training/prm/synthetic-prm-examples.js";
import { scriptedStepResults } from "../training/tfjs/scripted-step-results.js";

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

/** Runs the whole CLI, exit codes and error messages as a user sees them. */
async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe("selfplay prm label", () => {
  let folder: string;
  let run: string;
  let modelPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-prm-label-"));
    // A run folder as selfplay train leaves it: proposer trees with their solvers, one a line.
    run = join(folder, "run");
    await mkdir(run);
    const step = await scriptedStepResults([
      { cluster: "add-2x2-no-carry", problem: "23+45", solvers: ["68", "67", "68", "68"] },
      { cluster: "add-1x1-carry", problem: "nothing" },
      { cluster: "add-1x1-no-carry", problem: "3+4", solvers: ["7", "1", "7", "7"] },
    ]);
    await writeFile(join(run, "rollouts.jsonl"), jsonl(step));
    await writeRunCheckpoint(run, { name: "arithmetic" });
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 4 })).path;
  });

  it("labels every prefix of every solver attempt with its outcome, without a model", async () => {
    const out = join(folder, "labels", "outcomes.jsonl");
    const { code, stdout, stderr } = await runCli(["prm", "label", "--trajectories", join(folder, "*", "rollouts.jsonl"), "--out", out, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = (await readFile(out, "utf8")).trimEnd().split("\n").map((line) => PrmExampleSchema.parse(JSON.parse(line)));
    // 23+45: "", "6", "68"/"67" for four attempts; 3+4: "", "7"/"1" for four attempts.
    expect(lines).toHaveLength(4 * 3 + 4 * 2);
    expect(lines.slice(0, 6)).toEqual([
      { task: "23+45=", cluster: "add-2x2-no-carry", prefix: "", label: 1 },
      { task: "23+45=", cluster: "add-2x2-no-carry", prefix: "6", label: 1 },
      { task: "23+45=", cluster: "add-2x2-no-carry", prefix: "68", label: 1 },
      { task: "23+45=", cluster: "add-2x2-no-carry", prefix: "", label: 0 },
      { task: "23+45=", cluster: "add-2x2-no-carry", prefix: "6", label: 0 },
      { task: "23+45=", cluster: "add-2x2-no-carry", prefix: "67", label: 0 },
    ]);
    expect(lines.slice(12, 14)).toEqual([
      { task: "3+4=", cluster: "add-1x1-no-carry", prefix: "", label: 1 },
      { task: "3+4=", cluster: "add-1x1-no-carry", prefix: "7", label: 1 },
    ]);
    expect(JSON.parse(stdout)).toEqual({ files: 1, trajectories: 8, states: 20, rollouts: 0, continuations: 0, meanLabel: 15 / 20 });
    // Written whole, by rename: nothing else is left in the folder.
    expect(await readdir(join(folder, "labels"))).toEqual(["outcomes.jsonl"]);
  });

  it("rolls K continuations per prefix on the run's final model by default (real engine), reproducibly", async () => {
    const out = join(folder, "mc.jsonl");
    const missing = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--rollouts", "2", "--out", out]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--model: expected a model to sample continuations on; by default the run's final\.gguf in .*run, or its final\.lora\.gguf .*\(the run has not finished\): pass --model FILE/);
    await copyFile(modelPath, join(run, "final.gguf"));
    const { code, stdout, stderr } = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--rollouts", "2", "--out", out, "--json"]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/labelling .*rollouts\.jsonl: 8 trajectories, 2 continuations per prefix on .*final\.gguf/);
    const summary = JSON.parse(stdout) as Record<string, number>;
    // Every prefix but the 8 whole solutions is continued twice.
    expect(summary).toMatchObject({ trajectories: 8, states: 20, rollouts: 2, continuations: 2 * 12 });
    const lines = (await readFile(out, "utf8")).trimEnd().split("\n").map((line) => PrmExampleSchema.parse(JSON.parse(line)));
    for (const line of lines) expect([0, 0.5, 1]).toContain(line.label);
    // The whole solutions keep their outcomes.
    expect(lines[2]).toEqual({ task: "23+45=", cluster: "add-2x2-no-carry", prefix: "68", label: 1 });
    const again = join(folder, "mc-again.jsonl");
    expect((await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--rollouts", "2", "--model", modelPath, "--out", again])).code).toBe(0);
    expect(await readFile(again, "utf8")).toBe(await readFile(out, "utf8"));
  });

  it("exits 2 naming the glob, the file and line, and the fix", async () => {
    const none = await runCli(["prm", "label", "--trajectories", join(folder, "nowhere", "*.jsonl"), "--out", join(folder, "x.jsonl")]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--trajectories: got ".*nowhere.*"; expected a glob that names at least one rollouts\.jsonl file/);
    // Outside a run folder the environment must be named.
    const bad = join(folder, "bad");
    await mkdir(bad);
    await copyFile(join(run, "rollouts.jsonl"), join(bad, "rollouts.jsonl"));
    const unnamed = await runCli(["prm", "label", "--trajectories", join(bad, "rollouts.jsonl"), "--out", join(folder, "x.jsonl")]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/--env: expected the environment that made the rollouts in .*bad: it has no complete checkpoint of selfplay train .*; pass --env NAME or --env \.\/module\.js/);
    const misnamed = await runCli(["prm", "label", "--trajectories", join(bad, "rollouts.jsonl"), "--out", join(folder, "x.jsonl"), "--env", "arithmetics"]);
    expect(misnamed.code).toBe(2);
    expect(misnamed.stderr).toMatch(/environment arithmetics: no such built-in environment/);
    const named = await runCli(["prm", "label", "--trajectories", join(bad, "rollouts.jsonl"), "--out", join(folder, "named.jsonl"), "--env", "arithmetic"]);
    expect(named.code, named.stderr).toBe(0);
    expect(await readFile(join(folder, "named.jsonl"), "utf8")).toBe(await readFile(join(folder, "labels", "outcomes.jsonl"), "utf8"));
    const good = (await readFile(join(run, "rollouts.jsonl"), "utf8")).split("\n")[0];
    await writeFile(join(bad, "rollouts.jsonl"), `${good}\n{"rollout": 3}\n${good}\n`);
    const malformed = await runCli(["prm", "label", "--trajectories", join(bad, "rollouts.jsonl"), "--out", join(folder, "x.jsonl"), "--env", "arithmetic"]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/bad\/rollouts\.jsonl:2: not a valid JSON line \(rollout: .*; expected one GenerateResult a line, as rollouts\.jsonl of selfplay train or selfplay run holds: pass those files, or delete the line\)/);
    // Only the proposal that wrote no problem: no solver ever ran.
    const invalidProposal = (await readFile(join(run, "rollouts.jsonl"), "utf8")).split("\n")[1];
    await writeFile(join(bad, "rollouts.jsonl"), `${invalidProposal}\n`);
    const noSolvers = await runCli(["prm", "label", "--trajectories", join(bad, "rollouts.jsonl"), "--out", join(folder, "x.jsonl"), "--env", "arithmetic"]);
    expect(noSolvers.code).toBe(2);
    expect(noSolvers.stderr).toMatch(/--trajectories: got ".*"; expected files with scored rollouts of arithmetic-solve \(the episode types their environment labels\); 1 file\(s\) matched and hold none/);
    expect((await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--out", join(folder, "x.jsonl"), "--chunk", "0"])).stderr).toMatch(/--chunk: got "0"; expected an integer from 1/);
  });
});

describe("selfplay prm label on any environment", () => {
  let folder: string;
  const module = { name: "labelling-test", module: LABELLING_ENVIRONMENT_MODULE };
  const [twos, fives] = QUIZ as [(typeof QUIZ)[number], (typeof QUIZ)[number]];
  const readLabels = async (path: string) => (await readFile(path, "utf8")).trimEnd().split("\n").map((line) => PrmExampleSchema.parse(JSON.parse(line)));

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-prm-any-"));
  });

  it("labels a module environment's run by outcome, clustered by the environment's clusters, read from its checkpoint", async () => {
    const run = join(folder, "quiz-run");
    await mkdir(run);
    const results = await scriptedLabellingResults(
      [{ episodeType: "quiz", question: twos }, { episodeType: "quiz", question: twos }, { episodeType: "quiz", question: fives }],
      { "2+2=": ["4", "5"], "5+5=": ["10"] },
    );
    await writeFile(join(run, "rollouts.jsonl"), jsonl(results));
    await writeRunCheckpoint(run, module, { clustered: true });
    const out = join(folder, "quiz.jsonl");
    const { code, stdout, stderr } = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--out", out, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const state = (task: string, cluster: string, prefix: string, label: number) => ({ task, cluster, prefix, label });
    expect(await readLabels(out)).toEqual([
      state("2+2=", "one-digit", "", 1),
      state("2+2=", "one-digit", "4", 1),
      state("2+2=", "one-digit", "", 0),
      state("2+2=", "one-digit", "5", 0),
      state("5+5=", "two-digit", "", 1),
      state("5+5=", "two-digit", "1", 1),
      state("5+5=", "two-digit", "10", 1),
    ]);
    expect(JSON.parse(stdout)).toEqual({ files: 1, trajectories: 3, states: 7, rollouts: 0, continuations: 0, meanLabel: 5 / 7 });

    // The same file outside a run folder, named by --env at its default options (no clusters): one cluster, the episode type.
    const loose = join(folder, "loose");
    await mkdir(loose);
    await copyFile(join(run, "rollouts.jsonl"), join(loose, "rollouts.jsonl"));
    const unclustered = join(folder, "quiz-unclustered.jsonl");
    expect((await runCli(["prm", "label", "--trajectories", join(loose, "rollouts.jsonl"), "--out", unclustered, "--env", LABELLING_ENVIRONMENT_MODULE])).code).toBe(0);
    expect((await readLabels(unclustered)).map((example) => example.cluster)).toEqual(Array(7).fill("quiz"));
  });

  it("labels a multi-turn episode's trainable role by outcome and refuses Monte-Carlo labels by name, before any model loads", async () => {
    const run = join(folder, "recheck-run");
    await mkdir(run);
    // The answerer says 5, then 4 when asked whether it is sure: the second answer is checked.
    const results = await scriptedLabellingResults([{ episodeType: "recheck", question: twos }], { "2+2=": ["5"], sure: ["4"] });
    await writeFile(join(run, "rollouts.jsonl"), jsonl(results));
    await writeRunCheckpoint(run, module, { episodes: ["recheck"] });
    const out = join(folder, "recheck.jsonl");
    const { code, stderr } = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--out", out]);
    expect(code, stderr).toBe(0);
    // The frozen coach's Step is not a trajectory; the answerer's two Steps are one, its prefixes running across both.
    expect(await readLabels(out)).toEqual([
      { task: "2+2=", cluster: "recheck", prefix: "", label: 1 },
      { task: "2+2=", cluster: "recheck", prefix: "5", label: 1 },
      { task: "2+2=", cluster: "recheck", prefix: "5\n4", label: 1 },
    ]);
    const refused = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--out", out, "--rollouts", "2", "--model", join(folder, "never-loaded.gguf")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /recheck-run\/rollouts\.jsonl:1 ep0: recheck: got "3 Steps and 0 sub-episodes"; expected a single-Step episode for Monte-Carlo labels .*recheck is multi-turn: label it with --rollouts 0/,
    );
  });

  it("labels a single-Step episode's run on the engine (project-made model): outcomes, and K continuations re-scored by its verifier", async () => {
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 3 })).path;
    const run = join(folder, "engine-run");
    await mkdir(run);
    // Greedy decoding: a question expecting the tiny model's greedy reply is solved by every greedy continuation of every
    // prefix of that reply, and one expecting "4" by none.
    const client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
    let greedy: string;
    try {
      const arena = new Arena({ client, seed: 6, samplerDefaults: { temperature: 0, maxTokens: 6 } });
      for (const episode of createLabellingEpisodes()) arena.register(episode);
      const [probe] = await arena.generateRollouts([{ episodeType: "quiz", artifact: twos }]);
      greedy = probe!.rollout.steps[0]!.completion[0]!.content.trim();
      const right = { question: twos.question, expected: greedy };
      const results = await arena.generateRollouts([right, right, twos].map((artifact) => ({ episodeType: "quiz", artifact })));
      await writeFile(join(run, "rollouts.jsonl"), jsonl(results));
    } finally {
      await client.dispose();
    }
    expect(greedy.length).toBeGreaterThan(1);
    expect(greedy).not.toBe("4");
    await writeRunCheckpoint(run, module, { clustered: true });
    const outcomes = join(folder, "engine-outcomes.jsonl");
    const byOutcome = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--out", outcomes, "--chunk", "2", "--json"]);
    expect(byOutcome.code, byOutcome.stderr).toBe(0);
    const outcomeSummary = JSON.parse(byOutcome.stdout) as { states: number };
    expect(outcomeSummary).toMatchObject({ files: 1, trajectories: 3, rollouts: 0 });
    expect(outcomeSummary.states).toBeGreaterThan(6);
    const outcomeLabels = await readLabels(outcomes);
    // Each trajectory starts at ""; the third expected "4": a one-digit question, not solved.
    const third = outcomeLabels.map((example) => example.prefix).lastIndexOf("");
    expect(outcomeLabels.map(({ cluster, label }) => `${cluster} ${label}`)).toEqual(outcomeLabels.map((_, index) => (index < third ? "two-digit 1" : "one-digit 0")));

    await copyFile(modelPath, join(run, "final.gguf"));
    const monteCarlo = join(folder, "engine-mc.jsonl");
    const byContinuations = await runCli(["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--out", monteCarlo, "--chunk", "2", "--rollouts", "2", "--json"]);
    expect(byContinuations.code, byContinuations.stderr).toBe(0);
    // Every prefix but the 3 whole answers is continued twice, on the run's final.gguf; greedy continuations finish each answer as it was.
    expect(JSON.parse(byContinuations.stdout)).toMatchObject({ trajectories: 3, states: outcomeSummary.states, continuations: 2 * (outcomeSummary.states - 3) });
    expect(await readLabels(monteCarlo)).toEqual(outcomeLabels);

    // A run that trained a LoRA ends with final.lora.gguf: continuations run on it over the base its checkpoint records.
    const loraRun = join(folder, "lora-run");
    await mkdir(loraRun);
    await copyFile(join(run, "rollouts.jsonl"), join(loraRun, "rollouts.jsonl"));
    await writeRunCheckpoint(loraRun, module, { clustered: true }, modelPath);
    await createRandomLoraAdapter({ baseModelPath: modelPath, path: join(loraRun, "final.lora.gguf"), rank: 2, seed: 1 });
    const overLora = await runCli(["prm", "label", "--trajectories", join(loraRun, "rollouts.jsonl"), "--out", join(folder, "lora-mc.jsonl"), "--chunk", "2", "--rollouts", "2", "--json"]);
    expect(overLora.code, overLora.stderr).toBe(0);
    expect(overLora.stderr).toMatch(/2 continuations per prefix on .*lora-run\/final\.lora\.gguf over .*tiny\.gguf/);
    expect(JSON.parse(overLora.stdout)).toMatchObject({ trajectories: 3, continuations: 2 * (outcomeSummary.states - 3) });
  });
});
