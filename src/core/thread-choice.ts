/** A CPU thread count and where it came from (a flag, a setting, or a default and its rule). */
export interface ThreadChoice {
  threads: number;
  /** Said after the count: `from --trainer-threads`, `default: this machine's cores`, … */
  reason: string;
}

/** How stderr says a thread count, for the trainer's update and the engine's decode alike: `2 decode thread(s) (default: …)`. */
export function describeThreads(choice: ThreadChoice, work: string): string {
  return `${choice.threads} ${work} thread(s) (${choice.reason})`;
}
