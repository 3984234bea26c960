/**
 * Every error selfplay raises on purpose. Each message says what went wrong and
 * what to do about it; `name` is stable so metrics can count failures by kind.
 */
export class SelfplayError extends Error {
  override readonly name: string = "SelfplayError";
}
