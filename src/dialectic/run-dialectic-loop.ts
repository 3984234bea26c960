import type { Messages } from "../core/schemas/message.js";
import type { EnsembleVerdict } from "./critic-ensemble.js";
import { detectOscillation, type OscillationPattern } from "./detect-oscillation.js";
import type { DialecticOutcome, DialecticState } from "./dialectic-outcome.js";
import type { DialecticRound } from "./dialectic-round.js";
import type { DialecticSettings } from "./dialectic-settings.js";
import { escapeStrategyFor, recurringIssues } from "./escape-strategy.js";
import { isStalled } from "./is-stalled.js";
import { proposalHash } from "./proposal-hash.js";
import { proposerMessages } from "./proposer-prompt.js";

/** How the loop reaches its models; the episode wires these to its context. */
export interface DialecticPorts {
  /** The proposer's reply to `messages`, sampled at `temperature`. */
  propose(messages: Messages, temperature: number): Promise<string>;
  /** The critics' verdict on a proposal. */
  critique(task: string, proposal: string): Promise<EnsembleVerdict>;
  /** An independent score of a proposal (tests, ground truth), 0 to 1; only a trainable critic needs one. */
  check?: (proposal: string) => Promise<number>;
}

export interface DialecticTask {
  task: string;
  /** Extra context shown to the proposer; empty for none. */
  context: string;
}

/**
 * The proposer/critic loop. Each round the proposer writes or refines a
 * proposal and the critics judge it; then, in order: approved with a score at
 * the threshold → `converged`; an oscillation (`detectOscillation`) → the
 * basic engine stops `oscillating`, the adaptive one applies the next escape
 * strategy (raise temperature, inject constraints, return best) and logs it on
 * the round; no improvement across the window → `stalled`; out of rounds →
 * `max_rounds`. The basic engine returns the latest proposal; the adaptive one
 * returns the best so far whenever it stops without converging.
 */
export async function runDialecticLoop(ports: DialecticPorts, input: DialecticTask, settings: DialecticSettings): Promise<DialecticOutcome> {
  const rounds: DialecticRound[] = [];
  let temperature = settings.baseTemperature;
  let constraints: string[] = [];
  let oscillations = 0;
  let lastPattern: OscillationPattern | null = null;

  const finish = (state: DialecticState): DialecticOutcome => {
    const returned = settings.adaptive && state !== "converged" ? bestRound(rounds) : (rounds[rounds.length - 1] as DialecticRound);
    return {
      state,
      pattern: lastPattern,
      rounds,
      finalOutput: returned.proposal,
      finalScore: returned.critique.score,
      finalRound: returned.round,
    };
  };

  for (let round = 1; round <= settings.maxRounds; round++) {
    // Propose, then critique.
    const previous = rounds[rounds.length - 1];
    const messages = proposerMessages({
      ...input,
      ...(previous && { previous: { proposal: previous.proposal, critique: previous.critique } }),
      constraints,
      adaptive: settings.adaptive,
    });
    const proposal = await ports.propose(messages, temperature);
    const verdict = await ports.critique(input.task, proposal);
    const record: DialecticRound = {
      round,
      proposal,
      proposalHash: proposalHash(proposal),
      temperature,
      constraints,
      critique: verdict.critique,
      critics: verdict.members,
      disagreement: verdict.disagreement,
      check: ports.check ? await ports.check(proposal) : null,
      pattern: null,
      strategy: null,
    };
    rounds.push(record);

    // Terminal checks, in the specification's order.
    if (verdict.critique.approved && verdict.critique.score >= settings.approvalThreshold) return finish("converged");
    const pattern = detectOscillation(rounds, settings);
    if (pattern !== null) {
      record.pattern = lastPattern = pattern;
      if (!settings.adaptive) return finish("oscillating");
      const strategy = escapeStrategyFor(++oscillations);
      record.strategy = strategy;
      if (strategy === "return-best") return finish("oscillating");
      // Rounded so that 0.7 + 0.1 is logged as 0.8.
      if (strategy === "raise-temperature") temperature = Math.min(settings.maxTemperature, roundTo6(temperature + settings.temperatureStep));
      else constraints = recurringIssues(rounds.slice(-settings.oscillationWindow), settings.issueSimilarityThreshold);
      // The escape gets its round: stalling is judged again once it has been tried.
      continue;
    }
    if (isStalled(rounds.map((entry) => entry.critique.score), settings)) return finish("stalled");
  }
  return finish("max_rounds");
}

/** The round with the highest score; the earliest among equals, as the specification's `max` picks. */
function bestRound(rounds: readonly DialecticRound[]): DialecticRound {
  return rounds.reduce((best, round) => (round.critique.score > best.critique.score ? round : best));
}

function roundTo6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
