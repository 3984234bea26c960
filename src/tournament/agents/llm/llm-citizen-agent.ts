import { z } from "zod";
import type { EpisodeContext } from "../../../core/episodes/episode-context.js";
import type { Messages } from "../../../core/schemas/message.js";
import { parseAction, type Action } from "../../world/actions.js";
import type { AgentView, TournamentAgent } from "../tournament-agent.js";
import { llmActionSchema } from "./llm-action-schema.js";
import { llmChatMessages, type CitizenGoal } from "./llm-chat-messages.js";
import { llmStatePrompt } from "./llm-state-prompt.js";

/**
 * How an LLM citizen's turn is put to the model: `compact`, the state lines
 * alone as one user message (llmStatePrompt: a byte model with 256 positions
 * has room for it and an action), or `chat`, a system message with the
 * citizen's goal and the actions and the state in words (llmChatMessages:
 * for an instruction-tuned model in its chat template).
 */
export const LlmPromptFormSchema = z.enum(["compact", "chat"], { error: "compact (the bundled base's) or chat (an instruction-tuned model's)" });
export type LlmPromptForm = z.infer<typeof LlmPromptFormSchema>;

export interface LlmCitizenAgentOptions {
  /** The Role whose Steps these calls are (the citizen's id in the tournament episode). */
  roleId: string;
  /** Rounds the episode plays (shown in the prompt). */
  rounds: number;
  /** What the citizen plays for, shown in the prompt: `fair` for an honest citizen, the objective for a red one. */
  goal: CitizenGoal;
  /** The prompt's form. Default `compact`. */
  prompt?: LlmPromptForm;
  /** The citizen's side, itself included, which the `chat` form's red goal names. Default the citizen alone. */
  team?: readonly string[];
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
 * `context.callModelForObject` with its turn's prompt (`prompt`) and the action
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
    this.tally.calls += 1;
    try {
      const { value } = await this.context.callModelForObject(this.options.roleId, this.messages(view), llmActionSchema(view), { maxAttempts: 1 });
      return parseAction(value, `${this.options.roleId}.action`);
    } catch (error) {
      // By name: the arena and this module may load different copies of the error classes (source and build).
      if (!(error instanceof Error && error.name === "StructuredOutputError")) throw error;
      this.tally.invalid += 1;
      return { type: "Pass", actor: view.self };
    }
  }

  private messages(view: AgentView): Messages {
    const { rounds, goal, prompt, team } = this.options;
    if (prompt === "chat") return llmChatMessages(view, { rounds, goal, ...(team !== undefined && { team }) });
    return [{ role: "user", content: llmStatePrompt(view, { rounds, goal }) }];
  }
}
