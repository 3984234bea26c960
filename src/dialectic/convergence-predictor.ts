import { z } from "zod";
import { InvalidInputError } from "../core/errors/index.js";
import { parseInput } from "../core/parse-input.js";
import { detectOscillation, type OscillationRound } from "./detect-oscillation.js";
import { DialecticSettingsSchema, type DialecticSettings, type DialecticSettingsInput } from "./dialectic-settings.js";

/** What the predictor reads of a round. */
export interface PredictorRound extends OscillationRound {
  critique: { approved: boolean; score: number; issues: readonly string[] };
}

/** Logistic-regression weights, one per feature (see `ConvergencePredictor`). */
export const PredictorWeightsSchema = z.object({
  bias: z.number(),
  /** Latest score minus the approval threshold. */
  gap: z.number(),
  /** Where the least-squares trend of the scores reaches by the last round, minus the threshold (clipped to ±1). */
  projectedGap: z.number(),
  /** 1 when the trend rises by less than the improvement threshold a round (the loop is likely to stall). */
  slowProgress: z.number(),
  /** 1 when an oscillation pattern showed up. */
  oscillation: z.number(),
  /** 1 when a critique approved (below the score threshold). */
  approval: z.number(),
  /** Rounds left as a fraction of the maximum. */
  remaining: z.number(),
});
export type PredictorWeights = z.infer<typeof PredictorWeightsSchema>;

const FEATURES = ["bias", "gap", "projectedGap", "slowProgress", "oscillation", "approval", "remaining"] as const;

/** Set by hand from what the features mean, not fitted: use `ConvergencePredictor.fit` for weights fitted to recorded runs. */
export const DEFAULT_PREDICTOR_WEIGHTS: PredictorWeights = {
  bias: 0.5,
  gap: 8,
  projectedGap: 6,
  slowProgress: -1.5,
  oscillation: -1,
  approval: 0.5,
  remaining: 1.5,
};

export interface ConvergencePredictorOptions {
  /** The loop's settings (threshold, rounds, oscillation window); defaults as the loop's. */
  settings?: DialecticSettingsInput;
  /** Default DEFAULT_PREDICTOR_WEIGHTS. */
  weights?: PredictorWeights;
}

export interface ConvergenceFitOptions extends ConvergencePredictorOptions {
  /** Gradient-descent steps over the whole set. Default 3000. */
  iterations?: number;
  /** Step size. Default 0.5. */
  learningRate?: number;
  /** L2 penalty on every weight but the bias. Default 0.001. */
  l2?: number;
}

/** A recorded run cut after its first rounds, and whether the whole run converged. */
export interface ConvergenceExample {
  rounds: readonly PredictorRound[];
  converged: boolean;
}

/**
 * Predicts from a loop's first rounds how likely it is to converge: a
 * logistic model of the score's gap to the threshold, where its trend leads
 * in the rounds left, slow progress, oscillation and approvals so far.
 */
export class ConvergencePredictor {
  readonly weights: PredictorWeights;
  private readonly settings: DialecticSettings;

  constructor(options: ConvergencePredictorOptions = {}) {
    this.settings = parseInput(DialecticSettingsSchema, options.settings ?? {}, { fieldName: (path) => `settings.${path.map(String).join(".")}` });
    this.weights = parseInput(PredictorWeightsSchema, options.weights ?? DEFAULT_PREDICTOR_WEIGHTS, {
      fieldName: (path) => `weights.${path.map(String).join(".")}`,
    });
  }

  /** Probability of converging, from the rounds seen so far; 1 once a round has converged. */
  predict(rounds: readonly PredictorRound[]): number {
    if (rounds.some((round) => round.critique.approved && round.critique.score >= this.settings.approvalThreshold)) return 1;
    const features = convergenceFeatures(rounds, this.settings);
    return sigmoid(FEATURES.reduce((sum, name, index) => sum + this.weights[name] * (features[index] as number), 0));
  }

  /** Fits the weights to recorded runs by logistic regression (full-batch gradient descent from zero: deterministic). */
  static fit(examples: readonly ConvergenceExample[], options: ConvergenceFitOptions = {}): ConvergencePredictor {
    if (examples.length === 0) throw new InvalidInputError("examples", "at least one recorded run", []);
    const settings = parseInput(DialecticSettingsSchema, options.settings ?? {});
    const rows = examples.map((example) => convergenceFeatures(example.rounds, settings));
    const targets = examples.map((example) => (example.converged ? 1 : 0));
    const weights = FEATURES.map(() => 0);
    const learningRate = options.learningRate ?? 0.5;
    const l2 = options.l2 ?? 0.001;
    for (let iteration = 0; iteration < (options.iterations ?? 3000); iteration++) {
      const gradient = FEATURES.map((_, index) => (index === 0 ? 0 : l2 * (weights[index] as number)));
      rows.forEach((row, rowIndex) => {
        const error = sigmoid(dot(weights, row)) - (targets[rowIndex] as number);
        row.forEach((value, index) => (gradient[index] = (gradient[index] as number) + (error * value) / rows.length));
      });
      gradient.forEach((step, index) => (weights[index] = (weights[index] as number) - learningRate * step));
    }
    const fitted = Object.fromEntries(FEATURES.map((name, index) => [name, weights[index] as number])) as PredictorWeights;
    return new ConvergencePredictor({ ...(options.settings && { settings: options.settings }), weights: fitted });
  }
}

/** The feature vector, in FEATURES order. */
function convergenceFeatures(rounds: readonly PredictorRound[], settings: DialecticSettings): number[] {
  if (rounds.length === 0) throw new InvalidInputError("rounds", "at least one round to predict from", []);
  const scores = rounds.map((round) => round.critique.score);
  const latest = scores[scores.length - 1] as number;
  const slope = leastSquaresSlope(scores);
  const remaining = Math.max(0, settings.maxRounds - rounds.length);
  const projected = Math.max(-1, Math.min(1, latest + slope * remaining - settings.approvalThreshold));
  let oscillation = 0;
  for (let length = settings.oscillationWindow; length <= rounds.length; length++) {
    if (detectOscillation(rounds.slice(0, length), settings) !== null) oscillation = 1;
  }
  return [
    1,
    latest - settings.approvalThreshold,
    projected,
    rounds.length > 1 && slope < settings.improvementThreshold ? 1 : 0,
    oscillation,
    rounds.some((round) => round.critique.approved) ? 1 : 0,
    remaining / settings.maxRounds,
  ];
}

function leastSquaresSlope(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const meanX = (values.length - 1) / 2;
  const meanY = values.reduce((total, value) => total + value, 0) / values.length;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, index) => {
    covariance += (index - meanX) * (value - meanY);
    variance += (index - meanX) ** 2;
  });
  return covariance / variance;
}

function dot(left: readonly number[], right: readonly number[]): number {
  return left.reduce((total, value, index) => total + value * (right[index] as number), 0);
}

function sigmoid(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}
