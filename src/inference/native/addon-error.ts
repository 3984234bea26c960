import { InvalidInputError } from "../../core/errors/index.js";
import { NativeEngineDisposedError, NativeEngineError } from "../errors/index.js";
import { GrammarRejectedTokenError } from "../errors/grammar-rejected-token-error.js";
import type { AddonErrorCode } from "./AddonTypes.js";

/**
 * The addon's coded errors as selfplay's named ones, for every native
 * wrapper alike. Its argument errors read `<field>: expected <what>`; one
 * that does not names `fallbackField` (what the caller passed). An error
 * without a code is not the addon's own and is passed on as it is.
 */
export function addonError(error: unknown, fallbackField: string): Error {
  if (!(error instanceof Error)) return new NativeEngineError(String(error));
  switch ((error as Error & { code?: AddonErrorCode }).code) {
    case "SELFPLAY_GRAMMAR_REJECTED_TOKEN":
      return new GrammarRejectedTokenError(error.message, { cause: error });
    case "SELFPLAY_INVALID_ARGUMENT":
    case "SELFPLAY_INVALID_GRAMMAR": {
      const match = /^(\S+): expected (.*)$/s.exec(error.message);
      return match ? new InvalidInputError(match[1] as string, match[2] as string) : new InvalidInputError(fallbackField, error.message);
    }
    case "SELFPLAY_DISPOSED":
      return new NativeEngineDisposedError(error.message, { cause: error });
    case "SELFPLAY_LOAD_FAILED":
    case "SELFPLAY_GENERATION_FAILED":
      return new NativeEngineError(error.message, { cause: error });
    default:
      return error;
  }
}
