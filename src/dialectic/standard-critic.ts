import { criticCallOptions, type Critic, type CriticOptions, type StructuredAsk } from "./critic.js";
import { criticMessages } from "./critic-prompt.js";
import { CritiqueSchema, type Critique } from "./critique.js";

const ANSWER_FORMAT = '{"approved": true or false, "score": 0.0 to 1.0, "feedback": "...", "issues": ["..."], "suggestions": ["..."]}';

/** A critic that asks for a Critique directly: approval, one overall score, feedback, issues, suggestions. */
export class StandardCritic implements Critic {
  readonly id: string;

  constructor(private readonly options: CriticOptions = {}) {
    this.id = options.id ?? options.focus ?? "critic";
  }

  async evaluate(ask: StructuredAsk, task: string, proposal: string): Promise<Critique> {
    const messages = criticMessages(task, proposal, { focus: this.options.focus, answerFormat: ANSWER_FORMAT });
    return (await ask(messages, CritiqueSchema, criticCallOptions(this.options))).value;
  }
}
