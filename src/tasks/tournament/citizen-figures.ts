import type { GenerateResult } from "../../core/schemas/generate-result.js";

/** What the episode's `finalize` records of a model-played citizen (`artifacts.citizens`). */
export interface CitizenSummary {
  outcome: number;
  submitted: number;
  rejected: number;
  calls: number;
  invalid: number;
}

/** The summaries of `citizens` in one rollout (those it has). */
export function citizenSummaries(result: GenerateResult, citizens: readonly string[]): CitizenSummary[] {
  const all = result.rollout.artifacts.citizens as unknown as Record<string, CitizenSummary>;
  return citizens.flatMap((citizen) => (Object.hasOwn(all, citizen) ? [all[citizen] as CitizenSummary] : []));
}

/**
 * Some model-played citizens over the scored results: their mean outcome, the
 * share of their submissions the gate refused, their invalid outputs, and the
 * submissions and refusals counted (so a run's share can be summed from its
 * steps). `opponent` names them `opponentMeanOutcome` … so the opponent
 * citizens' figures sit beside the trained citizens' on one line.
 */
export function citizenFigures(results: readonly GenerateResult[], citizens: readonly string[], side: "trained" | "opponent" = "trained"): Record<string, number> {
  const summaries = results.filter((result) => result.outcome.status === "scored").flatMap((result) => citizenSummaries(result, citizens));
  const sum = (pick: (citizen: CitizenSummary) => number) => summaries.reduce((total, citizen) => total + pick(citizen), 0);
  const figures = {
    meanOutcome: sum((citizen) => citizen.outcome) / Math.max(summaries.length, 1),
    rejectedShare: sum((citizen) => citizen.rejected) / Math.max(sum((citizen) => citizen.submitted), 1),
    invalidOutputs: sum((citizen) => citizen.invalid),
    submitted: sum((citizen) => citizen.submitted),
    rejected: sum((citizen) => citizen.rejected),
  };
  if (side === "trained") return figures;
  return Object.fromEntries(Object.entries(figures).map(([name, value]) => [`opponent${name[0]!.toUpperCase()}${name.slice(1)}`, value]));
}
