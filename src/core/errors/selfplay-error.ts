import type { JsonObject } from "../json.js";

/**
 * Every error selfplay raises on purpose. Each message says what went wrong and
 * what to do about it; `name` is stable so metrics can count failures by kind.
 */
export class SelfplayError extends Error {
  override readonly name: string = "SelfplayError";
  /**
   * What a program reading the error's record needs besides the message (the
   * reward function that threw …): copied into rollouts.jsonl by
   * `toErrorRecord`, so nothing has to parse a message. Default: none.
   */
  readonly details?: JsonObject;
}
