import { SelfplayError } from "./selfplay-error.js";

/** A JSONL file has a corrupt line before its last one (a torn last line is tolerated). */
export class CorruptJsonlError extends SelfplayError {
  override readonly name = "CorruptJsonlError";
  constructor(readonly path: string, readonly lineNumber: number, readonly reason: string) {
    super(`${path}:${lineNumber}: not a valid JSON line (${reason}); only the last line of an interrupted file may be torn`);
  }
}
