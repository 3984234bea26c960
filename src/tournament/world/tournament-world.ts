import { z } from "zod";
import { deriveStream } from "../../core/random/random-stream.js";
import { parseInput } from "../../core/parse-input.js";
import type { Kernel } from "../kernel/kernel.js";
import type { PatchableParamName } from "../kernel/kernel-schema.js";
import { checkActionLegality, checkLegality, malformedAction, type LegalityResult } from "../legality/check-legality.js";
import { readAction, type Action, type ReadAction } from "./actions.js";
import { effectiveParams } from "./effective-params.js";
import type { EventDraft, TournamentEvent } from "./events.js";
import { isAction, readSubmission, type Submission } from "./submission.js";
import { activeCitizens, citizenById, type CitizenState, type Proposal, type WorldState } from "./world-state.js";

export const WorldConfigSchema = z.strictObject({
  numCitizens: z.int().min(2).max(1000).default(7),
  /** Whole units in the treasury at the start. */
  initialTreasury: z.int().min(0).max(1e12).default(1000),
  /** Citizen i belongs to faction `f(i mod factions)`. */
  factions: z.int().min(1).max(1000).default(2),
  /** Draws each round's turn order. */
  seed: z.int().min(0).max(2 ** 31 - 1).default(0),
});
export type WorldConfig = z.infer<typeof WorldConfigSchema>;
export type WorldConfigInput = z.input<typeof WorldConfigSchema>;

export interface StepResult {
  legal: boolean;
  reason: string | null;
  article: string | null;
  /** The events this action appended (one `rejected` event when illegal). */
  events: TournamentEvent[];
}

/**
 * The turn-based world. Each round every active citizen acts once, in an
 * order drawn from the seed; `step` routes one action through the legality
 * gate before anything changes. A legal action is applied and logged; an
 * illegal one leaves the state exactly as it was, logs a `rejected` event and
 * keeps the turn with the same citizen. Tallies, lapses and queued exits run
 * when the last citizen of a round has acted.
 */
export class TournamentWorld {
  readonly config: WorldConfig;
  private worldState: WorldState;
  private readonly log: TournamentEvent[] = [];
  private readonly submitted: Submission[] = [];

  constructor(readonly kernel: Kernel, config: WorldConfigInput = {}) {
    this.config = parseInput(WorldConfigSchema, config, { fieldName: (path) => `world.${path.map(String).join(".")}` });
    const citizens: CitizenState[] = Array.from({ length: this.config.numCitizens }, (_, index) => ({
      id: `c${index}`,
      faction: `f${index % this.config.factions}`,
      status: "active",
      balance: 0,
      exitQueuedRound: null,
    }));
    this.worldState = {
      round: 0,
      turnOrder: [],
      turnIndex: 0,
      treasury: this.config.initialTreasury,
      citizens,
      proposals: [],
      emergency: null,
      lastEmergencyEndRound: null,
      paramOverrides: {},
    };
    this.worldState.turnOrder = this.drawTurnOrder(0);
  }

  /** Every citizen id, exited ones included. */
  citizens(): string[] {
    return this.worldState.citizens.map((citizen) => citizen.id);
  }

  get state(): Readonly<WorldState> {
    return this.worldState;
  }

  /** The current round, from 0. */
  get turn(): number {
    return this.worldState.round;
  }

  /** Whose turn it is; null once every citizen has exited. */
  get actorOnTurn(): string | null {
    return this.worldState.turnOrder[this.worldState.turnIndex] ?? null;
  }

  get events(): readonly TournamentEvent[] {
    return this.log;
  }

  /** Every submission, in order — actions legal or not, and what was no action as it was — the transcript `resubmit` feeds back. */
  get submissions(): readonly Submission[] {
    return this.submitted;
  }

  /** The submissions that were actions, legal or not, in order. */
  get actions(): readonly Action[] {
    return this.submitted.filter(isAction);
  }

  /** What the gate would say of `action` now, without applying it. */
  check(action: unknown): LegalityResult {
    return checkLegality(this.worldState, action, this.kernel);
  }

  /**
   * The gate for every caller: `action` is read as JSON and with the closed
   * vocabulary's schema, then judged by the kernel, before anything changes.
   * Whatever it is given, it returns (never throws): a malformed submission is
   * a `rejected` event naming its fields at fault in path order (article null:
   * no article decides) and is kept in the transcript as what it was
   * (`{malformed: its JSON}`, or `{notJson: …}` for what JSON cannot hold); an
   * illegal action is a `rejected` event with its article; only a legal one
   * changes the state. The log and the transcript keep frozen copies.
   */
  step(action: unknown): StepResult {
    return this.submit(readAction(action));
  }

  /** Feeds one entry of `submissions` back through the gate: the same action, or the same refusal (what a replay does). */
  resubmit(submission: Submission): StepResult {
    return this.submit(readSubmission(submission));
  }

  private submit(read: ReadAction): StepResult {
    const firstNew = this.log.length;
    if (!read.ok) {
      const refusal = malformedAction(read);
      this.submitted.push(read.submission);
      this.emit({ type: "rejected", action: null, reason: refusal.reason ?? "", article: null });
      return { legal: false, reason: refusal.reason, article: null, events: this.log.slice(firstNew) };
    }
    const verdict = checkActionLegality(this.worldState, read.action, this.kernel);
    this.submitted.push(read.action);
    if (!verdict.legal) {
      this.emit({ type: "rejected", action: read.action, reason: verdict.reason, article: verdict.article });
      return { legal: false, reason: verdict.reason, article: verdict.article, events: this.log.slice(firstNew) };
    }
    this.apply(read.action);
    this.worldState.turnIndex += 1;
    if (this.worldState.turnIndex >= this.worldState.turnOrder.length) this.endRound();
    return { legal: true, reason: null, article: null, events: this.log.slice(firstNew) };
  }

  /** An independent copy in the same position (for searches that try moves). */
  clone(): TournamentWorld {
    const copy = Object.create(TournamentWorld.prototype) as TournamentWorld;
    Object.assign(copy, { kernel: this.kernel, config: this.config, worldState: copyWorldState(this.worldState), log: [...this.log], submitted: [...this.submitted] });
    return copy;
  }

  private emit(draft: EventDraft): void {
    this.log.push(freezeEvent({ seq: this.log.length, round: this.worldState.round, ...draft } as TournamentEvent));
  }

  private drawTurnOrder(round: number): string[] {
    const order = activeCitizens(this.worldState).map((citizen) => citizen.id);
    const stream = deriveStream(this.config.seed, "tournament", "turn-order", String(round));
    for (let index = order.length - 1; index > 0; index--) {
      const other = stream.integer(index + 1);
      [order[index], order[other]] = [order[other] as string, order[index] as string];
    }
    return order;
  }

  private apply(action: Action): void {
    const state = this.worldState;
    const params = effectiveParams(this.kernel, state);
    switch (action.type) {
      case "Pass":
        this.emit({ type: "passed", actor: action.actor });
        return;
      case "ProposeSpend":
      case "ProposeAmendment": {
        const base = { id: `p${state.proposals.length}`, proposer: action.actor, openedRound: state.round, closesAfterRound: state.round + params.votingWindowRounds - 1, ballots: [], status: "open" as const };
        if (action.type === "ProposeSpend") {
          state.proposals.push({ ...base, kind: "spend", amount: action.amount, recipient: action.recipient, memo: action.memo });
          this.emit({ type: "proposal_opened", proposalId: base.id, actor: action.actor, kind: "spend", amount: action.amount, recipient: action.recipient });
        } else {
          const changes = sortedChanges(action.changes);
          state.proposals.push({ ...base, kind: "amendment", changes });
          this.emit({ type: "proposal_opened", proposalId: base.id, actor: action.actor, kind: "amendment", changes });
        }
        return;
      }
      case "Vote": {
        const proposal = state.proposals.find((candidate) => candidate.id === action.proposalId) as Proposal;
        proposal.ballots.push({ citizen: action.actor, support: action.support });
        this.emit({ type: "vote_cast", proposalId: proposal.id, actor: action.actor, support: action.support });
        return;
      }
      case "DeclareEmergency":
        state.emergency = { declaredBy: action.actor, startRound: state.round };
        this.emit({ type: "emergency_declared", actor: action.actor, reason: action.reason });
        return;
      case "EndEmergency": {
        const lastedRounds = state.round - (state.emergency?.startRound ?? state.round) + 1;
        state.emergency = null;
        state.lastEmergencyEndRound = state.round;
        this.emit({ type: "emergency_ended", actor: action.actor, lastedRounds });
        return;
      }
      case "Exit": {
        const citizen = citizenById(state, action.actor) as CitizenState;
        if (state.emergency !== null && params.exitsQueuedDuringEmergency) {
          citizen.exitQueuedRound = state.round;
          this.emit({ type: "exit_queued", actor: citizen.id, article: this.kernel.articleFor("exit.emergency").id });
        } else {
          this.carryOutExit(citizen);
        }
        return;
      }
    }
  }

  /** Pro-rata share: floor(treasury / active citizens, the leaver included); the remainder stays. */
  private carryOutExit(citizen: CitizenState): void {
    const state = this.worldState;
    const share = Math.floor(state.treasury / activeCitizens(state).length);
    const queuedRounds = citizen.exitQueuedRound === null ? 0 : state.round - citizen.exitQueuedRound;
    state.treasury -= share;
    citizen.balance += share;
    citizen.status = "exited";
    citizen.exitQueuedRound = null;
    this.emit({ type: "citizen_exited", actor: citizen.id, share, queuedRounds, article: this.kernel.articleFor("exit.share").id });
  }

  private endRound(): void {
    const state = this.worldState;
    for (const proposal of state.proposals) {
      if (proposal.status === "open" && proposal.closesAfterRound <= state.round) this.tally(proposal);
    }
    const params = effectiveParams(this.kernel, state);
    if (state.emergency !== null && state.round - state.emergency.startRound + 1 >= params.emergencyMaxRounds) {
      const { declaredBy, startRound } = state.emergency;
      state.emergency = null;
      state.lastEmergencyEndRound = state.round;
      this.emit({ type: "emergency_lapsed", declaredBy, lastedRounds: state.round - startRound + 1, article: this.kernel.articleFor("emergency.lapse").id });
    }
    if (state.emergency === null) {
      for (const citizen of state.citizens) if (citizen.status === "active" && citizen.exitQueuedRound !== null) this.carryOutExit(citizen);
    }
    state.round += 1;
    state.turnOrder = this.drawTurnOrder(state.round);
    state.turnIndex = 0;
    // Logged under the round that ended.
    this.log.push(freezeEvent({ seq: this.log.length, round: state.round - 1, type: "round_ended", nextTurnOrder: [...state.turnOrder] }));
  }

  private tally(proposal: Proposal): void {
    const state = this.worldState;
    const params = effectiveParams(this.kernel, state);
    const active = activeCitizens(state).length;
    const yes = proposal.ballots.filter((ballot) => ballot.support).length;
    const no = proposal.ballots.length - yes;
    const cast = yes + no;
    const approvalPercent = proposal.kind === "spend" ? params.spendApprovalPercent : params.amendmentApprovalPercent;
    const decide = (outcome: "passed" | "failed", rule: Parameters<Kernel["articleFor"]>[0], reason: string): void => {
      proposal.status = outcome;
      this.emit({ type: "proposal_decided", proposalId: proposal.id, outcome, yes, no, active, reason, article: this.kernel.articleFor(rule).id });
    };
    if (cast * 100 < active * params.quorumPercent || cast === 0) return decide("failed", "tally.quorum", `${cast} of ${active} active citizens voted; quorum is ${params.quorumPercent}%`);
    if (yes * 100 < cast * approvalPercent) return decide("failed", "tally.approval", `${yes} of ${cast} ballots in favour; ${approvalPercent}% needed`);
    if (proposal.kind === "amendment") {
      decide("passed", "tally.approval", `${yes} of ${cast} ballots in favour`);
      state.paramOverrides = { ...state.paramOverrides, ...proposal.changes };
      this.emit({ type: "amendment_applied", proposalId: proposal.id, changes: proposal.changes });
      return;
    }
    const recipient = citizenById(state, proposal.recipient);
    if (recipient?.status !== "active") return decide("failed", "spend.recipient", `${proposal.recipient} has exited`);
    if (proposal.amount > state.treasury) return decide("failed", "tally.funds", `the treasury holds ${state.treasury}, less than ${proposal.amount}`);
    decide("passed", "tally.approval", `${yes} of ${cast} ballots in favour`);
    state.treasury -= proposal.amount;
    recipient.balance += proposal.amount;
    this.emit({ type: "spend_paid", proposalId: proposal.id, recipient: recipient.id, amount: proposal.amount });
  }
}

/**
 * A deep copy of everything `apply`, `endRound` and `tally` change in place
 * (citizens, proposals and their ballots, the turn order); a search clones
 * for every move it tries, and structuredClone cost it most of its time.
 */
function copyWorldState(state: WorldState): WorldState {
  return {
    ...state,
    turnOrder: [...state.turnOrder],
    citizens: state.citizens.map((citizen) => ({ ...citizen })),
    proposals: state.proposals.map((proposal) => (proposal.kind === "spend" ? { ...proposal, ballots: proposal.ballots.map((ballot) => ({ ...ballot })) } : { ...proposal, ballots: proposal.ballots.map((ballot) => ({ ...ballot })), changes: { ...proposal.changes } })),
    emergency: state.emergency === null ? null : { ...state.emergency },
    paramOverrides: { ...state.paramOverrides },
  };
}

/** The log is append-only: an event, once logged, cannot be changed by anyone holding it (its arrays and objects are fresh copies). */
function freezeEvent(event: TournamentEvent): TournamentEvent {
  for (const value of Object.values(event)) if (typeof value === "object" && value !== null) Object.freeze(value);
  return Object.freeze(event);
}

function sortedChanges(changes: Record<string, number | boolean>): Partial<Record<PatchableParamName, number | boolean>> {
  return Object.fromEntries(Object.keys(changes).sort().map((name) => [name, changes[name]]));
}
