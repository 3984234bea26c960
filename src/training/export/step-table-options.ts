/** What a format that reads the run's Steps is given besides the results. */
export interface StepTableOptions {
  /** Where the results were read (`RUN/rollouts.jsonl`), for error messages. */
  source: string;
  /** Only this role's Steps. Default: every role's. */
  role?: string;
}
