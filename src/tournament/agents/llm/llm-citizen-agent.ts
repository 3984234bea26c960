import type { EpisodeContext } from "../../../core/episodes/episode-context.js";
import { parseAction, type Action } from "../../world/actions.js";
import type { AgentView, TournamentAgent } from "../tournament-agent.js";
import { llmActionSchema } from "./llm-action-schema.js";
import { llmStatePrompt } from "./llm-state-prompt.js";

export interface LlmCitizenAgentOptions {
  /** The Role whose Steps these calls are (the citizen's id in the tournament episode). */
  roleId: string;
  /** Rounds the episode plays (shown in the prompt). */
  rounds: number;
  /** What the citizen plays for, shown in the prompt: `fair` for an honest citizen, the objective for a red one. */
  goal: string;
}

/** What an LLM citizen did over an episode. */
export interface LlmCitizenTally {
  /** Model calls (each a Step). */
  calls: number;
  /** Calls whose output did not validate (only a truncated completion can fail under the grammar); the citizen passed instead. */
  invalid: number;
}

/**
 * A citizen played by the policy: each turn one schema-bound call through
 * `context.callModelForObject` with the compact state prompt and the action
 * schema of this citizen (so, under the engine's grammar, every sample is a
 * parseable action of its own), read with `parseAction`. The legality gate
 * still judges it; `playRounds` shows a refusal in the next prompt. An output
 * that does not validate (cut off at the token limit) is counted and the
 * citizen passes — the Step stays, flagged invalid.
 */
export class LlmCitizenAgent implements TournamentAgent {
  readonly kind = "llm";
  readonly tally: LlmCitizenTally = { calls: 0, invalid: 0 };

  constructor(
    private readonly context: EpisodeContext,
    private readonly options: LlmCitizenAgentOptions,
  ) {}

  async act(view: AgentView): Promise<Action> {
    const prompt = llmStatePrompt(view, { rounds: this.options.rounds, goal: this.options.goal });
    this.tally.calls += 1;
    try {
      const { value } = await this.context.callModelForObject(this.options.roleId, [{ role: "user", content: prompt }], llmActionSchema(view), { maxAttempts: 1 });
      return parseAction(value, `${this.options.roleId}.action`);
    } catch (error) {
      // By name: the arena and this module may load different copies of the error classes (source and build).
      if (!(error instanceof Error && error.name === "StructuredOutputError")) throw error;
      this.tally.invalid += 1;
      return { type: "Pass", actor: view.self };
    }
  }
}
