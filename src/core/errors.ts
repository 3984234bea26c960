/**
 * Every error selfplay raises on purpose. Each message says what went wrong and
 * what to do about it; `name` is stable so metrics can count failures by kind.
 */
export class SelfplayError extends Error {
  override readonly name: string = "SelfplayError";
}

/** A configuration value, CLI flag or schema-validated input is not allowed. */
export class InvalidInputError extends SelfplayError {
  override readonly name = "InvalidInputError";
  constructor(
    /** Dotted path of the offending field, e.g. `count` or `sampler.temperature`. */
    readonly field: string,
    /** What is allowed instead. */
    readonly allowed: string,
    readonly received?: unknown,
  ) {
    super(
      `${field}: ${received === undefined ? "" : `got ${JSON.stringify(received)}; `}expected ${allowed}`,
    );
  }
}

/** An EpisodeRequest names an episode type that was never registered with the arena. */
export class UnknownEpisodeTypeError extends SelfplayError {
  override readonly name = "UnknownEpisodeTypeError";
  constructor(readonly episodeType: string, registered: readonly string[]) {
    super(
      `unknown episode type "${episodeType}"; register it with arena.register() first ` +
        `(registered: ${registered.length === 0 ? "none" : registered.join(", ")})`,
    );
  }
}

/** An episode called a role it does not declare. */
export class UnknownRoleError extends SelfplayError {
  override readonly name = "UnknownRoleError";
  constructor(readonly roleId: string, episodeType: string, declared: readonly string[]) {
    super(`episode "${episodeType}" called role "${roleId}", which it does not declare (declared: ${declared.join(", ")})`);
  }
}

/** A judge's output could not be parsed within its retry budget. */
export class JudgeOutputError extends SelfplayError {
  override readonly name = "JudgeOutputError";
  constructor(readonly attempts: number, readonly lastOutput: string, reason: string) {
    super(`judge output did not parse after ${attempts} attempt(s): ${reason}; last output: ${JSON.stringify(lastOutput.slice(0, 200))}`);
  }
}

/** A verifier returned rewards that cannot be trained on (missing role, NaN, infinity). */
export class InvalidRewardError extends SelfplayError {
  override readonly name = "InvalidRewardError";
}

/** A JSONL file has a corrupt line before its last one (a torn last line is tolerated). */
export class CorruptJsonlError extends SelfplayError {
  override readonly name = "CorruptJsonlError";
  constructor(readonly path: string, readonly lineNumber: number, reason: string) {
    super(`${path}:${lineNumber}: not a valid JSON line (${reason}); only the last line of an interrupted file may be torn`);
  }
}

/** A ScriptedInferenceClient was asked for a conversation its script does not cover. */
export class ScriptExhaustedError extends SelfplayError {
  override readonly name = "ScriptExhaustedError";
}

/** A run was aborted through its AbortSignal. */
export class RolloutAbortedError extends SelfplayError {
  override readonly name = "RolloutAbortedError";
}

/** Serialisable form of an error, as recorded in rollouts and metrics. */
export interface ErrorRecord {
  name: string;
  message: string;
}

export function toErrorRecord(error: unknown): ErrorRecord {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "NonErrorThrown", message: String(error) };
}
