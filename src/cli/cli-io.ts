/** Where the CLI writes; injected so tests read what a user would see. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stderr is a terminal: progress bars are drawn only then. */
  isTerminal: boolean;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTerminal: process.stderr.isTTY === true,
};

/** Exit codes: 0 success, 1 the job failed, 2 bad input (nothing was written). */
export const EXIT = { ok: 0, failure: 1, badInput: 2 } as const;
