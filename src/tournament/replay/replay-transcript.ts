import { KernelVersionMismatchError } from "../errors/index.js";
import type { Kernel } from "../kernel/kernel.js";
import type { TournamentEvent } from "../world/events.js";
import { TournamentWorld } from "../world/tournament-world.js";
import type { WorldState } from "../world/world-state.js";
import { eventLogHash } from "./canonical-json.js";
import type { Transcript } from "./transcript.js";

export interface ReplayOptions {
  /** Replay a transcript recorded under another kernel version (an amendment's test); refused otherwise. */
  acrossVersions?: boolean;
}

export interface ReplayResult {
  events: readonly TournamentEvent[];
  state: Readonly<WorldState>;
  eventLogHash: string;
  /** Submissions the gate refused during the replay (malformed ones included). */
  rejected: number;
}

/**
 * Feeds a transcript straight through the legality gate — no agent is asked
 * anything — so the outcome depends only on (transcript, kernel text). Its
 * malformed submissions are refused again with the same reasons, so the log
 * is the recorded run's, event for event.
 */
export function replayTranscript(transcript: Transcript, kernel: Kernel, options: ReplayOptions = {}): ReplayResult {
  if (transcript.kernelVersion !== kernel.version && options.acrossVersions !== true) {
    throw new KernelVersionMismatchError("kernelVersion", transcript.kernelVersion, kernel.version);
  }
  const environment = new TournamentWorld(kernel, transcript.world);
  let rejected = 0;
  for (const submission of transcript.actions) {
    if (!environment.resubmit(submission).legal) rejected += 1;
  }
  return { events: environment.events, state: environment.state, eventLogHash: eventLogHash(environment.events), rejected };
}
