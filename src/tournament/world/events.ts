import type { Action } from "./actions.js";
import type { PatchableParamName } from "../kernel/kernel-schema.js";

interface EventBase {
  /** Position in the log, from 0. */
  seq: number;
  round: number;
}

/**
 * One entry of the append-only event log. A legal action yields one or more
 * events; an illegal one yields exactly one `rejected` event and changes
 * nothing else.
 */
export type TournamentEvent = EventBase &
  (
    /** `action` and `article` are null for a submission that is not an action of the vocabulary (the schema refused it, no article decided). */
    | { type: "rejected"; action: Action | null; reason: string; article: string | null }
    | { type: "passed"; actor: string }
    | { type: "proposal_opened"; proposalId: string; actor: string; kind: "spend" | "amendment"; amount?: number; recipient?: string; changes?: Partial<Record<PatchableParamName, number | boolean>> }
    | { type: "vote_cast"; proposalId: string; actor: string; support: boolean }
    | { type: "proposal_decided"; proposalId: string; outcome: "passed" | "failed"; yes: number; no: number; active: number; reason: string; article: string }
    | { type: "spend_paid"; proposalId: string; recipient: string; amount: number }
    | { type: "amendment_applied"; proposalId: string; changes: Partial<Record<PatchableParamName, number | boolean>> }
    | { type: "emergency_declared"; actor: string; reason: string }
    | { type: "emergency_ended"; actor: string; lastedRounds: number }
    | { type: "emergency_lapsed"; declaredBy: string; lastedRounds: number; article: string }
    | { type: "exit_queued"; actor: string; article: string }
    | { type: "citizen_exited"; actor: string; share: number; queuedRounds: number; article: string }
    | { type: "round_ended"; nextTurnOrder: string[] }
  );

export type TournamentEventType = TournamentEvent["type"];

/** An event before the log numbers it. */
export type EventDraft = TournamentEvent extends infer Event ? (Event extends TournamentEvent ? Omit<Event, "seq" | "round"> : never) : never;
