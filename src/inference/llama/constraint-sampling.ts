import { LlamaGrammarEvaluationState, TokenBias, type Llama, type LlamaGrammar, type LlamaModel, type Token } from "node-llama-cpp";
import { InvalidInputError } from "../../core/errors/index.js";
import type { Constraint, LogitBias } from "../../core/schemas/constraint.js";
import { grammarTextFor } from "../grammar/grammar-text-for.js";

export { grammarTextFor };

/** What node-llama-cpp's evaluate needs to sample under a constraint. */
export interface ConstrainedSampling {
  grammarEvaluationState: LlamaGrammarEvaluationState;
  tokenBias?: TokenBias;
}

/**
 * Compiles constraints to llama.cpp grammars, once per distinct grammar text
 * (parsing a grammar costs more than a short completion).
 */
export class ConstraintCompiler {
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(private readonly llama: Llama) {}

  /** A fresh evaluation state (one per sequence: it tracks that sequence's progress through the grammar). */
  async samplingFor(model: LlamaModel, constraint: Constraint): Promise<ConstrainedSampling> {
    const gbnf = grammarTextFor(constraint);
    let grammar = this.grammars.get(gbnf);
    if (!grammar) {
      grammar = this.llama.createGrammar({ grammar: gbnf });
      this.grammars.set(gbnf, grammar);
      grammar.catch(() => this.grammars.delete(gbnf));
    }
    const grammarEvaluationState = new LlamaGrammarEvaluationState({ model, grammar: await grammar });
    return constraint.logitBias === undefined
      ? { grammarEvaluationState }
      : { grammarEvaluationState, tokenBias: tokenBiasFor(model, constraint.logitBias) };
  }
}

/** A logit bias keyed by token text, keyed by token id instead; each text must be exactly one token. */
export function logitBiasTokenIds(model: LlamaModel, logitBias: LogitBias): Map<Token, number> {
  const bias = new Map<Token, number>();
  for (const [text, logit] of Object.entries(logitBias)) {
    const tokens = model.tokenize(text, true);
    if (tokens.length !== 1) {
      throw new InvalidInputError(
        `constraint.logitBias[${JSON.stringify(text)}]`,
        `the text of exactly one token of this model (it is ${tokens.length} tokens)`,
        text,
      );
    }
    bias.set(tokens[0] as Token, logit);
  }
  return bias;
}

function tokenBiasFor(model: LlamaModel, logitBias: LogitBias): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  for (const [token, logit] of logitBiasTokenIds(model, logitBias)) bias.set(token, { logit });
  return bias;
}
