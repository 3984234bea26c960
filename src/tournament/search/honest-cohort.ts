import type { RandomStreamState } from "../../core/random/random-stream.js";
import { agentStream } from "../agents/agent-stream.js";
import { HonestAgent, type HonestAgentOptions } from "../agents/honest-agent.js";
import type { TournamentAgent } from "../agents/tournament-agent.js";
import type { Action } from "../world/actions.js";
import { effectiveParams } from "../world/effective-params.js";
import type { TournamentWorld } from "../world/tournament-world.js";
import { ForkableStream } from "./forkable-stream.js";

/** Where every honest citizen's stream stands, by citizen id: a branch of the search carries one. */
export type CohortPosition = ReadonlyMap<string, RandomStreamState>;

/**
 * The honest citizens a search plays against: each an HonestAgent on its own
 * agentStream(tournament seed, episode, citizen), as a tournament makes them.
 * An HonestAgent's only changing state is its stream, so saving and restoring
 * the streams forks the whole cohort.
 */
export class HonestCohort {
  private readonly agents = new Map<string, TournamentAgent>();
  private readonly streams = new Map<string, ForkableStream>();

  constructor(citizens: readonly string[], tournamentSeed: number, episodeIndex: number, options: HonestAgentOptions, private readonly maxAttemptsPerTurn: number) {
    for (const citizen of citizens) {
      const stream = new ForkableStream(agentStream(tournamentSeed, episodeIndex, citizen));
      this.streams.set(citizen, stream);
      this.agents.set(citizen, new HonestAgent(stream, options));
    }
  }

  has(citizen: string): boolean {
    return this.agents.has(citizen);
  }

  position(): CohortPosition {
    return new Map([...this.streams].map(([citizen, stream]) => [citizen, stream.state()]));
  }

  moveTo(position: CohortPosition): void {
    for (const [citizen, state] of position) this.streams.get(citizen)?.restore(state);
  }

  /**
   * Plays honest turns while the round is `round` and an honest citizen is on
   * turn, as playRounds does: a refused citizen chooses again with the refusal
   * in view and passes after `maxAttemptsPerTurn` refusals.
   */
  playTurns(environment: TournamentWorld, round: number): void {
    for (let self = environment.actorOnTurn; self !== null && environment.turn === round; self = environment.actorOnTurn) {
      const agent = this.agents.get(self);
      if (agent === undefined) return;
      let lastRejection: { action: Action; reason: string; article: string } | undefined;
      for (let attempt = 0; ; attempt++) {
        if (attempt === this.maxAttemptsPerTurn) {
          environment.step({ type: "Pass", actor: self });
          break;
        }
        const state = environment.state;
        const action = agent.act({ self, state, kernel: environment.kernel, params: effectiveParams(environment.kernel, state), events: environment.events, ...(lastRejection === undefined ? {} : { lastRejection }) });
        if (action instanceof Promise) throw new Error(`the honest agent for ${self} answered asynchronously; the search needs synchronous honest policies`);
        const result = environment.step(action);
        if (result.legal) break;
        lastRejection = { action, reason: result.reason ?? "", article: result.article ?? "" };
      }
    }
  }
}
