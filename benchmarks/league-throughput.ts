// League play's throughput cost (issue 38): the same tic-tac-toe training run, the policy in one seat and the role
// `opponent` in the other (`opponent: "base"`), trained through `train()` with `opponents: "current"` (the policy
// plays the opponent's seat too, in its own context) and with `opponents: "league"` (each game's opponent drawn
// from the run's snapshots, each in a context of its own beside the learner's; `--league-size`, default 4). Each mode
// runs in a child process of its own, so its peak RSS is its own. Evaluation is as small as the loop allows (it
// always evaluates at the start and the end; `evaluateEvery` 0, `evaluateGames` 1), and outside the step figures.
//
// The timings are the step lines' own (metrics.jsonl's, as `onStep` hands them over): `rolloutSeconds`,
// `updateSeconds`, and the `elapsedSeconds` difference between step lines as the step's wall time, which also holds
// the snapshot engines opened and closed after the sync. Moves and completion tokens are every role's Steps in the
// step's rollouts.jsonl lines (the step line's `rolloutTokensPerSecond` counts the trained seats' tokens only, which
// under `league` leaves the opponent's moves out). A step's engine contexts are the learner's and one per version
// the league held during its rollouts (the run's checkpoint of the step before, `league.versions`). The figures are
// over the steps whose league held at least 2 snapshots (`measuredSteps`: 2 to `--steps`), the same steps for
// both modes; `ratio` is league / current.
//
//   npm run build && node dist/benchmarks/league-throughput.js [--model FILE] [--steps 6] [--prompts 8] [--group-size 8] [--league-size 4]   (prints JSON)
//
// --model defaults to the bundled arithmetic base (a cheap smoke run); `--mode current|league` runs one mode alone.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { walkResults } from "../src/arena/walk-results.js";
import { RUN_FILES } from "../src/arena/run-directory.js";
import { InvalidInputError } from "../src/core/errors/index.js";
import type { GenerateResult } from "../src/core/schemas/generate-result.js";
import { bundledArithmeticBase } from "../src/inference/model-files/bundled-models.js";
import { createTicTacToeEnvironment } from "../src/tasks/tic-tac-toe/tic-tac-toe-environment.js";
import { train } from "../src/training/loop/train.js";
import { TrainingCheckpointSchema } from "../src/training/loop/training-checkpoint.js";
import { checkpointManifestPath } from "../src/training/trainer/checkpoint-paths.js";
import { integerFlag } from "./integer-flag.js";
import { stepsWithSnapshots, summariseStepThroughput, throughputRatios, type StepThroughputSample, type StepThroughputSummary } from "./summarise-step-throughput.js";

const MODES = ["current", "league"] as const;
type Mode = (typeof MODES)[number];

export interface LeagueThroughputOptions {
  modelPath: string;
  steps: number;
  prompts: number;
  groupSize: number;
  leagueSize: number;
}

/** One mode's run: every step's sample and the process's peak RSS (`resourceUsage().maxRSS`, the whole run). */
export interface LeagueThroughputModeRun {
  mode: Mode;
  samples: StepThroughputSample[];
  peakRssMiB: number;
}

export interface LeagueThroughputResult extends Omit<LeagueThroughputOptions, "modelPath"> {
  benchmark: "league-throughput";
  model: string;
  /** Steps whose league held at least 2 snapshots during their rollouts: the steps both modes' figures are over. */
  measuredSteps: number[];
  current: StepThroughputSummary & { peakRssMiB: number; perStep: StepThroughputSample[] };
  league: StepThroughputSummary & { peakRssMiB: number; perStep: StepThroughputSample[] };
  /** league / current, figure by figure. */
  ratio: Record<string, number>;
}

const MiB = 2 ** 20;

/** Trains `options.steps` steps of tic-tac-toe under `mode` in a temporary folder (removed after) and samples every step. */
export async function runLeagueThroughputMode(mode: Mode, options: LeagueThroughputOptions): Promise<LeagueThroughputModeRun> {
  const directory = await mkdtemp(join(tmpdir(), `selfplay-league-throughput-${mode}-`));
  const environment = { prompts: options.prompts, groupSize: options.groupSize, opponent: "base", evaluateGames: 1 };
  const samples: StepThroughputSample[] = [];
  let rolloutsRead = 0;
  let previousElapsed = 0;
  try {
    await train({
      environment: createTicTacToeEnvironment(environment),
      modelPath: options.modelPath,
      directory,
      configuration: { steps: options.steps, evaluateEvery: 0, opponents: mode, league: { size: options.leagueSize }, environment },
      onEvaluation: (evaluation) => {
        previousElapsed = evaluation.elapsedSeconds;
      },
      onStep: (line) => {
        // The step's rollouts are appended before its line; the checkpoint of the step before holds the league its rollouts drew from.
        const written = readFileSync(join(directory, RUN_FILES.rollouts));
        const results = written.subarray(rolloutsRead).toString("utf8").split("\n").filter((text) => text !== "").map((text) => JSON.parse(text) as GenerateResult);
        rolloutsRead = written.length;
        const steps = [...walkResults(results)].flatMap((result) => result.rollout.steps);
        const checkpoint = TrainingCheckpointSchema.parse(JSON.parse(readFileSync(checkpointManifestPath(directory, line.step - 1), "utf8")));
        samples.push({
          step: line.step,
          rolloutSeconds: line.rolloutSeconds,
          updateSeconds: line.updateSeconds,
          wallSeconds: line.elapsedSeconds - previousElapsed,
          moves: steps.length,
          completionTokens: steps.reduce((sum, step) => sum + step.completionTokenIds.length, 0),
          engineContexts: 1 + (checkpoint.league?.versions.length ?? 0),
          rssMiB: process.memoryUsage().rss / MiB,
        });
        previousElapsed = line.elapsedSeconds;
      },
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  return { mode, samples, peakRssMiB: (process.resourceUsage().maxRSS * 1024) / MiB };
}

/** Both modes' runs side by side: the figures over the steps whose league held ≥ 2 snapshots, and league / current. */
export function compareLeagueThroughput(options: LeagueThroughputOptions, current: LeagueThroughputModeRun, league: LeagueThroughputModeRun): LeagueThroughputResult {
  const measuredSteps = stepsWithSnapshots(league.samples, 2);
  const summary = (run: LeagueThroughputModeRun) => ({ ...summariseStepThroughput(run.samples, measuredSteps), peakRssMiB: run.peakRssMiB, perStep: run.samples });
  const [currentSummary, leagueSummary] = [summary(current), summary(league)];
  const { modelPath, ...sizes } = options;
  return { benchmark: "league-throughput", model: modelPath, ...sizes, measuredSteps, current: currentSummary, league: leagueSummary, ratio: throughputRatios(leagueSummary, currentSummary) };
}

/** Runs this script again with `--mode MODE` and reads the one JSON line it prints. */
function runModeProcess(mode: Mode): Promise<LeagueThroughputModeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [process.argv[1] as string, ...process.argv.slice(2), "--mode", mode], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(stdout) as LeagueThroughputModeRun) : reject(new Error(`the ${mode} run exited with ${code}`))));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const modelAt = process.argv.indexOf("--model");
  const modeAt = process.argv.indexOf("--mode");
  const modelPath = modelAt === -1 ? bundledArithmeticBase() : process.argv[modelAt + 1];
  if (modelPath === undefined) throw new InvalidInputError("--model", "the GGUF file to train (--model FILE), or no --model for the bundled arithmetic base");
  const options: LeagueThroughputOptions = {
    modelPath,
    steps: integerFlag("--steps", 6),
    prompts: integerFlag("--prompts", 8),
    groupSize: integerFlag("--group-size", 8),
    leagueSize: integerFlag("--league-size", 4),
  };
  // The league holds 2 snapshots (v0, v1) from step 2 and `--league-size` from step `--league-size`.
  if (options.steps < 2) throw new InvalidInputError("--steps", "an integer ≥ 2: the league holds 2 snapshots from step 2 on", options.steps);
  if (options.leagueSize < 2) throw new InvalidInputError("--league-size", "an integer ≥ 2: a league of 1 never holds 2 snapshots", options.leagueSize);
  if (modeAt !== -1) {
    const mode = process.argv[modeAt + 1];
    if (!MODES.includes(mode as Mode)) throw new InvalidInputError("--mode", MODES.join(" or "), mode);
    console.log(JSON.stringify(await runLeagueThroughputMode(mode as Mode, options)));
  } else {
    const current = await runModeProcess("current");
    const league = await runModeProcess("league");
    console.log(JSON.stringify(compareLeagueThroughput(options, current, league), null, 2));
  }
}
