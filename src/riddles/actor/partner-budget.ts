/**
 * The actor's partner allowance: each solver may have at most `perSolver`
 * partner discussions and the episode at most `total`. A solver is granted
 * its allowance before it starts (solvers of a wave run concurrently, so the
 * grant is reserved in solver order) and returns what it did not use.
 */
export class PartnerBudget {
  private remaining: number;
  private used = 0;

  constructor(private readonly perSolver: number, total: number) {
    this.remaining = total;
  }

  /** Reserves a solver's allowance: min(perSolver, what the episode has left). */
  grant(): number {
    const granted = Math.min(this.perSolver, this.remaining);
    this.remaining -= granted;
    return granted;
  }

  /** A solver finished having used `used` of its `granted` allowance; the rest goes back. */
  settle(granted: number, used: number): void {
    this.remaining += granted - used;
    this.used += used;
  }

  /** Partner discussions held so far. */
  get partnersUsed(): number {
    return this.used;
  }
}
