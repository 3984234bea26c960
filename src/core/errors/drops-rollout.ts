/**
 * The mark of an error that drops its rollout by design (the environment
 * contract's `DroppedRolloutError`): the arena records such a rollout as
 * `dropped` with the error as its reason, never as `failed`. Read by shape,
 * not `instanceof`, as `toErrorRecord` reads `details`: an environment module
 * may build its errors on another copy of selfplay, and the arena, below the
 * environment contract, cannot name its class.
 */
export interface DropsRollout {
  readonly dropsRollout: true;
}

/** Whether a caught value is an error that drops its rollout by design. */
export function dropsRollout(error: unknown): error is Error & DropsRollout {
  return error instanceof Error && (error as Partial<DropsRollout>).dropsRollout === true;
}
