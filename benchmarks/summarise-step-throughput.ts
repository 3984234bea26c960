/** One training step as the league-throughput benchmark read it from the run. */
export interface StepThroughputSample {
  step: number;
  /** The step line's `rolloutSeconds`. */
  rolloutSeconds: number;
  /** The step line's `updateSeconds`. */
  updateSeconds: number;
  /** Wall seconds since the previous step line (its `elapsedSeconds` difference): checkpoint, rollouts, update, sync, snapshot engines opened and closed. */
  wallSeconds: number;
  /** Steps of the step's rollouts, every role's (the opponent's too), sub-episodes included: moves in tic-tac-toe. */
  moves: number;
  /** Completion tokens of those Steps. */
  completionTokens: number;
  /** Engine contexts open during the step's rollouts: the learner's, and one per league snapshot. */
  engineContexts: number;
  /** The process's resident set, MiB, when the step's line was logged. */
  rssMiB: number;
}

/** One mode's figures over the measured steps. */
export interface StepThroughputSummary {
  steps: number[];
  /** Mean over the steps. */
  rolloutSecondsPerStep: number;
  updateSecondsPerStep: number;
  wallSecondsPerStep: number;
  /** Totals over the steps divided by their total rollout seconds. */
  completionTokensPerRolloutSecond: number;
  movesPerRolloutSecond: number;
  /** The most contexts open during any of the steps. */
  engineContexts: number;
  /** The largest resident set sampled at the steps' lines. */
  peakStepRssMiB: number;
}

/** Steps of a league run whose rollouts had at least `snapshots` league snapshots to draw from (contexts beyond the learner's). */
export function stepsWithSnapshots(samples: readonly StepThroughputSample[], snapshots: number): number[] {
  return samples.filter((sample) => sample.engineContexts - 1 >= snapshots).map((sample) => sample.step);
}

/** The figures of `samples` over `steps` (every one of them must be sampled). */
export function summariseStepThroughput(samples: readonly StepThroughputSample[], steps: readonly number[]): StepThroughputSummary {
  const chosen = steps.map((step) => {
    const sample = samples.find((candidate) => candidate.step === step);
    if (!sample) throw new Error(`step ${step} was not sampled (steps ${samples.map((candidate) => candidate.step).join(", ")})`);
    return sample;
  });
  if (chosen.length === 0) throw new Error("no step to summarise");
  const total = (figure: (sample: StepThroughputSample) => number) => chosen.reduce((sum, sample) => sum + figure(sample), 0);
  const rolloutSeconds = total((sample) => sample.rolloutSeconds);
  return {
    steps: [...steps],
    rolloutSecondsPerStep: rolloutSeconds / chosen.length,
    updateSecondsPerStep: total((sample) => sample.updateSeconds) / chosen.length,
    wallSecondsPerStep: total((sample) => sample.wallSeconds) / chosen.length,
    completionTokensPerRolloutSecond: total((sample) => sample.completionTokens) / rolloutSeconds,
    movesPerRolloutSecond: total((sample) => sample.moves) / rolloutSeconds,
    engineContexts: Math.max(...chosen.map((sample) => sample.engineContexts)),
    peakStepRssMiB: Math.max(...chosen.map((sample) => sample.rssMiB)),
  };
}

/** Each numeric figure of `league` divided by the same figure of `current`. */
export function throughputRatios(league: object, current: object): Record<string, number> {
  const base = new Map<string, unknown>(Object.entries(current));
  return Object.fromEntries(
    Object.entries(league).flatMap(([name, value]: [string, unknown]) => {
      const of = base.get(name);
      return typeof value === "number" && typeof of === "number" ? [[name, value / of]] : [];
    }),
  );
}
