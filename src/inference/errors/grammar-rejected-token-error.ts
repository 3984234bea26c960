import { SelfplayError } from "../../core/errors/index.js";

/**
 * A recorded completion token is not allowed by the grammar it is said to have
 * been sampled under, at the position it stands: the record's constraint and
 * tokens do not belong together (another grammar, another model's tokens, or
 * tokens edited after sampling). Its masks cannot be rebuilt, so it cannot be
 * trained as a constrained Step.
 */
export class GrammarRejectedTokenError extends SelfplayError {
  override readonly name = "GrammarRejectedTokenError";
  constructor(detail: string, options?: ErrorOptions) {
    super(`${detail}. Replay each record with the GBNF text its Step was sampled under (TrainingRecord.constraint) and the model that sampled it`, options);
  }
}
