import type { Kernel } from "../kernel/kernel.js";
import type { KernelParams } from "../kernel/kernel-schema.js";
import type { Action } from "../world/actions.js";
import type { TournamentEvent } from "../world/events.js";
import type { WorldState } from "../world/world-state.js";

/** What an agent sees when it is its citizen's turn. */
export interface AgentView {
  /** The citizen this agent plays. */
  self: string;
  state: Readonly<WorldState>;
  kernel: Kernel;
  /** The parameters in force (the kernel's with passed amendments). */
  params: Readonly<KernelParams>;
  events: readonly TournamentEvent[];
  /** Set when the agent's previous action this turn was refused: it chooses again. */
  lastRejection?: { action: Action; reason: string; article: string };
}

/**
 * A citizen's policy. Each agent gets its own seeded stream (from the
 * tournament seed, the episode index and the citizen id) when it is made, so
 * its choices depend on nothing else.
 */
export interface TournamentAgent {
  /** `honest`, `red:<objective>`, `search:<objective>`, `llm` … — reports group by it. */
  readonly kind: string;
  act(view: AgentView): Action | Promise<Action>;
}
