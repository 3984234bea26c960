import type { TournamentAgent } from "../agents/tournament-agent.js";
import type { Action } from "../world/actions.js";
import { effectiveParams } from "../world/effective-params.js";
import type { TournamentWorld } from "../world/tournament-world.js";

export interface PlayRoundsOptions {
  /** Play until the environment reaches this round (exclusive) or every citizen has left. */
  untilRound: number;
  /** Tries a citizen gets per turn; after this many refusals it passes. Default 3. */
  maxAttemptsPerTurn?: number;
}

/**
 * Asks each citizen on turn for an action and routes it through the gate;
 * a refused citizen chooses again with the refusal in view, and passes after
 * `maxAttemptsPerTurn` refusals. Every submission, refused ones included, is
 * in `environment.submissions`.
 */
export async function playRounds(environment: TournamentWorld, agents: Readonly<Record<string, TournamentAgent>>, options: PlayRoundsOptions): Promise<void> {
  const maxAttempts = options.maxAttemptsPerTurn ?? 3;
  while (environment.turn < options.untilRound) {
    const self = environment.actorOnTurn;
    if (self === null) return;
    const agent = agents[self];
    if (agent === undefined) throw new Error(`no agent plays ${self}`);
    let lastRejection: { action: Action; reason: string; article: string } | undefined;
    for (let attempt = 0; ; attempt++) {
      if (attempt === maxAttempts) {
        environment.step({ type: "Pass", actor: self });
        break;
      }
      const state = environment.state;
      const action = await agent.act({ self, state, kernel: environment.kernel, params: effectiveParams(environment.kernel, state), events: environment.events, ...(lastRejection === undefined ? {} : { lastRejection }) });
      const result = environment.step(action);
      if (result.legal) break;
      lastRejection = { action, reason: result.reason ?? "", article: result.article ?? "" };
    }
  }
}
