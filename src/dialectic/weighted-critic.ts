import { criticCallOptions, type Critic, type CriticOptions, type StructuredAsk } from "./critic.js";
import { criticMessages } from "./critic-prompt.js";
import type { Critique } from "./critique.js";
import {
  AspectWeightsSchema,
  DEFAULT_ASPECT_WEIGHTS,
  WeightedCritiqueSchema,
  critiqueFromWeighted,
  type AspectWeights,
} from "./weighted-critique.js";
import { parseInput } from "../core/parse-input.js";

const ANSWER_FORMAT =
  '{"approved": true or false, "scores": {"correctness": 0.0 to 1.0, "completeness": 0.0 to 1.0, "style": 0.0 to 1.0, ' +
  '"efficiency": 0.0 to 1.0}, "feedback": "...", "issues": ["..."], "suggestions": ["..."]}';

export interface WeightedCriticOptions extends CriticOptions {
  /** How much each aspect counts. Default correctness .4, completeness .3, style .2, efficiency .1. */
  weights?: AspectWeights;
}

/**
 * A critic that scores four aspects and reports their weighted mean as the
 * score, so the weighting is the project's, not the model's.
 */
export class WeightedCritic implements Critic {
  readonly id: string;
  private readonly weights: AspectWeights;

  constructor(private readonly options: WeightedCriticOptions = {}) {
    this.id = options.id ?? options.focus ?? "weighted-critic";
    this.weights = parseInput(AspectWeightsSchema, options.weights ?? DEFAULT_ASPECT_WEIGHTS, {
      fieldName: (path) => `weights${path.map((key) => `.${String(key)}`).join("")}`,
    });
  }

  async evaluate(ask: StructuredAsk, task: string, proposal: string): Promise<Critique> {
    const messages = criticMessages(task, proposal, { focus: this.options.focus, answerFormat: ANSWER_FORMAT });
    const { value } = await ask(messages, WeightedCritiqueSchema, criticCallOptions(this.options));
    return critiqueFromWeighted(value, this.weights);
  }
}
