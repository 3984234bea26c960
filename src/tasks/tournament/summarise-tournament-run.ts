import { z } from "zod";

/** What the run summary reads of a step line of metrics.jsonl: the episodes scored and the tournament's counts. */
const TournamentStepLineSchema = z.object({
  rollouts: z.object({ scored: z.number().int().min(0) }),
  environment: z.object({
    submitted: z.number().int().min(0),
    rejected: z.number().int().min(0),
    invalidOutputs: z.number().int().min(0),
    episodesWithFindings: z.number().int().min(0),
    opponentSubmitted: z.number().int().min(0).optional(),
    opponentRejected: z.number().int().min(0).optional(),
    opponentInvalidOutputs: z.number().int().min(0).optional(),
  }),
});

/** Some model-played citizens' actions over a run, as the gate judged them. */
export interface CitizenActions {
  /** Submissions to the gate (a turn refused `maxAttemptsPerTurn` times adds the Pass it ends with). */
  submitted: number;
  accepted: number;
  rejected: number;
  /** accepted / submitted (0 when nothing was submitted). */
  acceptedShare: number;
  /** Completions that did not validate (cut off at `maxTokens`); each became a Pass. */
  invalidOutputs: number;
}

/** report.json's `tournament`: the run's training episodes, what the gate made of the citizens' actions, and the detectors' findings. */
export interface TournamentRunSummary {
  /** Step lines read (evaluation lines and other environments' lines are passed over). */
  steps: number;
  /** Scored training episodes. */
  episodes: number;
  /** The LLM citizens' (the trained policy's). */
  citizens: CitizenActions;
  /** The opponent citizens' (a frozen policy's or a league's), when the run had some. */
  opponentCitizens?: CitizenActions;
  /** Episodes in which a capture detector fired, judged against every red citizen of the episode. */
  episodesWithFindings: number;
}

function actions(submitted: number, rejected: number, invalidOutputs: number): CitizenActions {
  return { submitted, accepted: submitted - rejected, rejected, acceptedShare: submitted === 0 ? 0 : (submitted - rejected) / submitted, invalidOutputs };
}

/**
 * The `tournament` environment's reading of a run's metrics.jsonl (its
 * `summariseRun`, in report.json): the step lines' counts summed, so the
 * accepted share is over every submission of the run, not a mean of steps.
 */
export function summariseTournamentRun(metricLines: readonly Record<string, unknown>[]): { tournament: TournamentRunSummary } {
  const lines = metricLines.flatMap((line) => {
    const parsed = TournamentStepLineSchema.safeParse(line);
    return parsed.success ? [parsed.data] : [];
  });
  const total = (pick: (line: (typeof lines)[number]) => number | undefined) => lines.reduce((sum, line) => sum + (pick(line) ?? 0), 0);
  const hasOpponents = lines.some((line) => line.environment.opponentSubmitted !== undefined);
  return {
    tournament: {
      steps: lines.length,
      episodes: total((line) => line.rollouts.scored),
      citizens: actions(total((line) => line.environment.submitted), total((line) => line.environment.rejected), total((line) => line.environment.invalidOutputs)),
      ...(hasOpponents && {
        opponentCitizens: actions(total((line) => line.environment.opponentSubmitted), total((line) => line.environment.opponentRejected), total((line) => line.environment.opponentInvalidOutputs)),
      }),
      episodesWithFindings: total((line) => line.environment.episodesWithFindings),
    },
  };
}
