// Dialectic calibration: how well the ConvergencePredictor's probability,
// made after a loop's first rounds, matches whether recorded runs converged.
// By default the runs are played through the arena with scripted proposers and
// critics whose behaviour varies run by run (steady trends, flip-flops,
// returning issues, perfection loops, escapes that work or not); the Brier
// score of the predictor is compared with that of always forecasting the base
// rate.
// With --model (issue 38) a chat model plays the proposer and, as the judge,
// the critic (one StandardCritic through the constrained JSON path), one loop
// for each of the first --tasks of dialecticLoopTasks (the environment's six
// and fifty more), the adaptive engine at the same settings (6 rounds): the
// distribution of outcomes, how often each escape strategy breaks an
// oscillation (no oscillation detected in any round after it), the loops that
// failed, and the same calibration figures over those runs.
//
//   node dist/benchmarks/dialectic-calibration.js [--quick]      (prints JSON)
//   npm run build && node dist/benchmarks/dialectic-calibration.js --model FILE [--tasks 56] [--threads 2] [--seed 11]   (prints JSON)
import { pathToFileURL } from "node:url";
import { Arena } from "../src/arena/arena.js";
import { InvalidInputError } from "../src/core/errors/index.js";
import type { GenerationRequest, InferenceClient } from "../src/core/inference-client.js";
import { deriveStream } from "../src/core/random/random-stream.js";
import { ConvergencePredictor, type ConvergenceExample } from "../src/dialectic/convergence-predictor.js";
import type { Critique } from "../src/dialectic/critique.js";
import { DialecticEpisode } from "../src/dialectic/dialectic-episode.js";
import { DialecticOutcomeSchema, type DialecticOutcome } from "../src/dialectic/dialectic-outcome.js";
import type { GenerateResult } from "../src/core/schemas/generate-result.js";
import { DialecticSettingsSchema, type DialecticSettings } from "../src/dialectic/dialectic-settings.js";
import type { EscapeStrategy } from "../src/dialectic/escape-strategy.js";
import { StandardCritic } from "../src/dialectic/standard-critic.js";
import { LlamaInferenceClient } from "../src/inference/llama/llama-inference-client.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../src/inference/scripted-inference-client.js";
import { dialecticLoopTasks } from "./dialectic-loop-tasks.js";
import { integerFlag } from "./integer-flag.js";

const SETTINGS = DialecticSettingsSchema.parse({ maxRounds: 6 });
/** The predictor sees this many rounds of each run still going after them. */
const PREDICTION_ROUND = 2;

type RunKind = "trend" | "flip-flop" | "reversal" | "perfection";
const KINDS: readonly RunKind[] = ["trend", "flip-flop", "reversal", "perfection"];
const KIND_WEIGHTS = [0.55, 0.15, 0.1, 0.2];

/** How one run's scripted proposer and critic behave, drawn from the run's own stream. */
interface RunProfile {
  kind: RunKind;
  /** Quality of the first draft. */
  start: number;
  /** Quality gained per round (negative: the proposer makes things worse). */
  drift: number;
  /** Standard deviation of the critic's noise. */
  noise: number;
  /** Whether an escape (higher temperature, constraints) breaks a flip-flop. */
  escapeWorks: boolean;
  /** Quality gained once constraints are injected (half of it from a raised temperature). */
  escapeBoost: number;
  /** Chance the critic approves a draft at or above the threshold. */
  approvalRate: number;
  /** Distance below the threshold a perfection loop circles at. */
  nearMiss: number;
}

function profileOf(seed: number, task: string): RunProfile {
  const random = deriveStream(seed, "profile", task);
  return {
    kind: KINDS[random.weightedIndex(KIND_WEIGHTS)] as RunKind,
    start: 0.3 + 0.5 * random.next(),
    drift: -0.04 + 0.18 * random.next(),
    noise: 0.05 * random.next(),
    escapeWorks: random.next() < 0.5,
    escapeBoost: 0.2 * random.next(),
    approvalRate: 0.7 + 0.3 * random.next(),
    nearMiss: 0.02 + 0.06 * random.next(),
  };
}

const WORDS = (
  "parse check split trim cache index merge sort guard retry batch stream buffer encode decode " +
  "validate normalise reject accept queue flush report count limit scan match filter map reduce"
).split(" ");
const APPROACH_A = "handle every case in one comprehensive pass with all the rules written inline and documented in place";
const APPROACH_B = "handle only the common case with a minimal solution and leave every rare case out of scope entirely";

function lastContent(request: GenerationRequest): string {
  return request.messages[request.messages.length - 1]?.content ?? "";
}

/** Scripted players whose behaviour is a function of (seed, task, draft number, escapes applied). */
export function calibrationRules(seed: number): ScriptedRule[] {
  return [
    {
      when: /^system: You are a proposal generator/,
      reply: (request) => {
        const prompt = lastContent(request);
        const task = /TASK: ([^\n]*)/.exec(prompt)?.[1] ?? "";
        const draft = Number(/YOUR PREVIOUS PROPOSAL:\ndraft (\d+)/.exec(prompt)?.[1] ?? 0) + 1;
        const profile = profileOf(seed, task);
        const tags = [request.sampler.temperature > SETTINGS.baseTemperature + 1e-9 ? " [hot]" : "", prompt.includes("CONSTRAINTS:") ? " [constrained]" : ""].join("");
        const escaped = tags !== "" && profile.escapeWorks;
        if (profile.kind === "flip-flop" && !escaped) return `draft ${draft} of ${task}${tags}: ${draft % 2 === 1 ? APPROACH_A : APPROACH_B}`;
        const words = deriveStream(seed, "words", task, String(draft));
        return `draft ${draft} of ${task}${tags}: ${Array.from({ length: 12 }, () => words.pick(WORDS)).join(" ")}`;
      },
    },
    {
      when: /^system: You are a strict but fair critic/,
      reply: (request) => {
        const proposal = lastContent(request).split("PROPOSAL TO EVALUATE:\n")[1] ?? "";
        const match = /^draft (\d+) of ([^:[]+?)( \[hot\])?( \[constrained\])?:/.exec(proposal);
        if (!match) return "I cannot judge this.";
        return JSON.stringify(critiqueOf(seed, (match[2] ?? "").trim(), Number(match[1]), match[3] !== undefined, match[4] !== undefined));
      },
    },
  ];
}

function critiqueOf(seed: number, task: string, draft: number, hot: boolean, constrained: boolean): Critique {
  const profile = profileOf(seed, task);
  const random = deriveStream(seed, "critic", task, String(draft));
  const gaussian = Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const boost = (constrained ? profile.escapeBoost : 0) + (hot ? profile.escapeBoost / 2 : 0);
  const odd = draft % 2 === 1;
  let quality: number;
  if (profile.kind === "perfection") quality = SETTINGS.approvalThreshold - profile.nearMiss + (odd ? -0.01 : 0.01) + 0.004 * gaussian;
  else if (profile.kind === "flip-flop") quality = profile.start + (odd ? 0 : 0.04) + profile.noise * gaussian;
  else quality = profile.start + profile.drift * (draft - 1) + profile.noise * gaussian;
  const score = Math.round(Math.min(1, Math.max(0, quality + boost)) * 100) / 100;
  const approved = score >= SETTINGS.approvalThreshold && random.next() < profile.approvalRate;
  let issues: string[];
  if (profile.kind === "reversal") issues = odd ? ["X is broken"] : ["Y is missing"];
  else if (profile.kind === "perfection") issues = odd ? ["Improve error handling"] : ["Simplify error handling"];
  else issues = ["no tests", "unclear names", "slow on large inputs", "misses empty input"].slice(0, Math.ceil((1 - score) * 4));
  return { approved, score, feedback: approved ? "Ready." : "Needs work.", issues, suggestions: [] };
}

export interface ReliabilityBin {
  /** Predicted probabilities in [from, to). */
  from: number;
  to: number;
  runs: number;
  meanPredicted: number | null;
  observedRate: number | null;
}

/** What came of the escapes of one strategy: tried (a round followed it) and broken or not, or untried (the run had no round left). */
export interface EscapeTally {
  applied: number;
  /** A round followed, and no oscillation was detected in any round after the escape. */
  broken: number;
  /** An oscillation was detected again in a later round. */
  recurred: number;
  /** The escape came in the run's last round: nothing followed to break or not. */
  untried: number;
}

/** How the loops met their oscillations. */
export interface EscapeFigures {
  /** Runs in which an oscillation was detected at least once. */
  oscillatedRuns: number;
  /** Oscillations detected over all runs (rounds with a pattern). */
  oscillations: number;
  strategies: Record<Exclude<EscapeStrategy, "return-best">, EscapeTally>;
  /** Oscillations met by giving up (`return-best`): the run ended `oscillating`. */
  returnedBest: number;
  /** broken / (broken + recurred) over both strategies: how often a tried escape breaks the oscillation; null when none was tried. */
  brokeShare: number | null;
}

export interface DialecticCalibrationResult {
  benchmark: "dialectic-calibration";
  /** The scripted population, or the model file that played proposer and critic. */
  source: "scripted" | { model: string; threads: number; seed: number };
  runs: number;
  /** Runs that ended without an outcome (a critique that never validated, say), by error name; in none of the figures below. */
  failed: Record<string, number>;
  /** Runs still going after the prediction round: the ones a prediction is made for. */
  evaluatedRuns: number;
  predictionRound: number;
  maxRounds: number;
  states: Record<DialecticOutcome["state"], number>;
  patterns: Record<string, number>;
  escapes: EscapeFigures;
  /** Share of evaluated runs that converged; null (and so every Brier figure) when no run was evaluated. */
  baseRate: number | null;
  brier: {
    /** The predictor with its default (hand-set) weights. */
    predictor: number | null;
    /** Weights fitted by logistic regression, each half of the runs predicted by weights fitted on the other half. */
    fittedCrossValidated: number | null;
    /** Forecasting the base rate for every run: baseRate × (1 − baseRate). */
    baseRate: number | null;
  };
  /** 1 − Brier / Brier of the base rate: above 0 beats the base rate. */
  brierSkill: { predictor: number | null; fittedCrossValidated: number | null };
  reliability: ReliabilityBin[];
  seconds: number;
}

export async function measureDialecticCalibration(runs: number, seed = 11): Promise<DialecticCalibrationResult> {
  const started = performance.now();
  const client = new ScriptedInferenceClient({ rules: calibrationRules(seed) });
  const arena = new Arena({ client, seed }).register(new DialecticEpisode(SETTINGS));
  const results = await arena.generateRollouts(Array.from({ length: runs }, (_, index) => ({ episodeType: "dialectic", artifact: { task: `run ${index}` } })));
  const failure = results.find((result) => result.outcome.status !== "scored");
  // The scripted players always answer in form: a failed run is a bug here, not a figure.
  if (failure) throw new Error(`run ${failure.rollout.id} failed: ${JSON.stringify(failure.outcome)}`);
  return summariseLoops(results, SETTINGS, "scripted", started);
}

/** How the loop runs on a model: the scripted population's settings, and token budgets a small chat model fits in. */
export interface ModelLoopOptions {
  /** One loop a task. */
  tasks: readonly string[];
  seed: number;
  /** The loop's settings. Default: the scripted population's (6 rounds, the rest the loop's defaults). */
  settings?: DialecticSettings;
  /** Tokens per proposal. Default 64. */
  proposerMaxTokens?: number;
  /** Tokens per critique. Default 320: a critique at CritiqueSchema's bounds is about 900 bytes. */
  criticMaxTokens?: number;
  /** Loops in flight. Default the client's parallel sequences. */
  concurrency?: number;
}

/** The loops a model plays, proposer and critic both (the critic as the judge, never a Step). */
export async function runDialecticLoops(client: InferenceClient, options: ModelLoopOptions): Promise<GenerateResult[]> {
  const critic = new StandardCritic({ sampler: { maxTokens: options.criticMaxTokens ?? 320 } });
  const episode = new DialecticEpisode({ ...(options.settings ?? SETTINGS), proposerMaxTokens: options.proposerMaxTokens ?? 64, critics: [critic] });
  const arena = new Arena({ client, seed: options.seed, concurrency: options.concurrency ?? client.capabilities.parallelSequences }).register(episode);
  try {
    return await arena.generateRollouts(options.tasks.map((task) => ({ episodeType: "dialectic", artifact: { task } })));
  } finally {
    await arena.close();
  }
}

/** The figures of finished loops: outcomes, patterns, escapes and the predictor's calibration over the scored ones. */
export function summariseLoops(results: readonly GenerateResult[], settings: DialecticSettings, source: DialecticCalibrationResult["source"], started: number): DialecticCalibrationResult {
  const failed: Record<string, number> = {};
  const outcomes: DialecticOutcome[] = [];
  for (const result of results) {
    if (result.outcome.status === "scored") outcomes.push(DialecticOutcomeSchema.parse(result.rollout.artifacts));
    else {
      const name = result.outcome.status === "failed" ? result.outcome.error.name : result.outcome.reason.name;
      failed[name] = (failed[name] ?? 0) + 1;
    }
  }
  const examples: ConvergenceExample[] = outcomes
    .filter((outcome) => outcome.rounds.length > PREDICTION_ROUND)
    .map((outcome) => ({ rounds: outcome.rounds.slice(0, PREDICTION_ROUND), converged: outcome.state === "converged" }));
  const predictor = new ConvergencePredictor({ settings });
  const predicted = examples.map((example) => predictor.predict(example.rounds));
  const baseRate = examples.length === 0 ? null : examples.filter((example) => example.converged).length / examples.length;
  const brierBaseRate = baseRate === null ? null : baseRate * (1 - baseRate);
  const brierPredictor = examples.length === 0 ? null : brier(predicted, examples);
  // Fitting needs a run in each half.
  const brierFitted = examples.length < 2 ? null : brier(crossFittedPredictions(examples, settings), examples);
  const skill = (value: number | null) => (value === null || brierBaseRate === null || brierBaseRate === 0 ? null : 1 - value / brierBaseRate);

  const states = { converged: 0, oscillating: 0, stalled: 0, max_rounds: 0 };
  const patterns: Record<string, number> = {};
  for (const outcome of outcomes) {
    states[outcome.state]++;
    if (outcome.pattern !== null) patterns[outcome.pattern] = (patterns[outcome.pattern] ?? 0) + 1;
  }
  return {
    benchmark: "dialectic-calibration",
    source,
    runs: results.length,
    failed,
    evaluatedRuns: examples.length,
    predictionRound: PREDICTION_ROUND,
    maxRounds: settings.maxRounds,
    states,
    patterns,
    escapes: escapeFigures(outcomes),
    baseRate,
    brier: { predictor: brierPredictor, fittedCrossValidated: brierFitted, baseRate: brierBaseRate },
    brierSkill: { predictor: skill(brierPredictor), fittedCrossValidated: skill(brierFitted) },
    reliability: reliability(predicted, examples),
    seconds: (performance.now() - started) / 1000,
  };
}

/** Each escape of each run judged by the rounds after it (DialecticRound.strategy is logged on the round that detected the oscillation). */
export function escapeFigures(outcomes: readonly DialecticOutcome[]): EscapeFigures {
  const tally = (): EscapeTally => ({ applied: 0, broken: 0, recurred: 0, untried: 0 });
  const strategies = { "raise-temperature": tally(), "inject-constraints": tally() };
  let oscillatedRuns = 0;
  let oscillations = 0;
  let returnedBest = 0;
  for (const { rounds } of outcomes) {
    const detected = rounds.filter((round) => round.pattern !== null).length;
    oscillations += detected;
    if (detected > 0) oscillatedRuns++;
    rounds.forEach((round, index) => {
      if (round.strategy === null) return;
      if (round.strategy === "return-best") {
        returnedBest++;
        return;
      }
      const entry = strategies[round.strategy];
      const after = rounds.slice(index + 1);
      entry.applied++;
      if (after.length === 0) entry.untried++;
      else if (after.some((later) => later.pattern !== null)) entry.recurred++;
      else entry.broken++;
    });
  }
  const broken = strategies["raise-temperature"].broken + strategies["inject-constraints"].broken;
  const tried = broken + strategies["raise-temperature"].recurred + strategies["inject-constraints"].recurred;
  return { oscillatedRuns, oscillations, strategies, returnedBest, brokeShare: tried === 0 ? null : broken / tried };
}

/** Each example predicted by weights fitted on the other half (halves by index parity). */
function crossFittedPredictions(examples: readonly ConvergenceExample[], settings: DialecticSettings): number[] {
  const halves = [0, 1].map((parity) => examples.filter((_, index) => index % 2 === parity));
  const fitted = halves.map((half) => ConvergencePredictor.fit(half, { settings }));
  return examples.map((example, index) => (fitted[1 - (index % 2)] as ConvergencePredictor).predict(example.rounds));
}

function brier(predictions: readonly number[], examples: readonly ConvergenceExample[]): number {
  return predictions.reduce((total, probability, index) => total + (probability - (examples[index]?.converged ? 1 : 0)) ** 2, 0) / predictions.length;
}

function reliability(predictions: readonly number[], examples: readonly ConvergenceExample[], bins = 5): ReliabilityBin[] {
  return Array.from({ length: bins }, (_, bin) => {
    const from = bin / bins;
    const to = (bin + 1) / bins;
    const members = predictions.flatMap((probability, index) =>
      probability >= from && (probability < to || (bin === bins - 1 && probability <= 1)) ? [{ probability, converged: examples[index]?.converged === true }] : [],
    );
    const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((total, value) => total + value, 0) / values.length);
    return {
      from,
      to,
      runs: members.length,
      meanPredicted: mean(members.map((member) => member.probability)),
      observedRate: mean(members.map((member) => (member.converged ? 1 : 0))),
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const at = process.argv.indexOf("--model");
  if (at === -1) {
    const quick = process.argv.includes("--quick");
    console.log(JSON.stringify(await measureDialecticCalibration(quick ? 80 : 1000)));
  } else {
    const model = process.argv[at + 1];
    if (model === undefined || model.startsWith("--")) throw new InvalidInputError("--model", "the chat model's GGUF file (--model FILE)", model);
    const started = performance.now();
    const tasks = dialecticLoopTasks(integerFlag("--tasks", 56));
    const threads = integerFlag("--threads", 2);
    const seed = integerFlag("--seed", 11);
    // A critic's prompt, a 64-token proposal and a 320-token critique fit in 1,024 positions; so does a refinement.
    const client = await LlamaInferenceClient.create({ modelPath: model, sequences: Math.min(8, tasks.length), contextSize: 1024, threads });
    try {
      const results = await runDialecticLoops(client, { tasks, seed });
      console.log(JSON.stringify(summariseLoops(results, SETTINGS, { model, threads, seed }, started)));
    } finally {
      await client.dispose();
    }
  }
}
