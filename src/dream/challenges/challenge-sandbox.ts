/** One program for the sandbox: its source and the directory it runs in. */
export interface SandboxProgram {
  /** JavaScript (CommonJS) source, run by Node 20. */
  source: string;
  /** Absolute path of the working directory: the program's only writable place. */
  directory: string;
  /** Which program of a challenge this is, for the sandbox's records and file names. */
  role: "setup" | "solution" | "validator" | "probe";
}

/** What the sandbox reports of one run (the fields of `runInSandbox`'s result the dream cycle reads). */
export interface SandboxRunResult {
  /** `ok` when the program exited on its own; otherwise why the sandbox stopped it or failed to start it. */
  status: string;
  /** The sandbox's explanation when it stopped the program (time, memory, output cap…); null when it exited. */
  reason: string | null;
  /** Exit code; null when the process was killed. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Which isolation the run had, as the sandbox records it. */
  isolation?: unknown;
}

/** Runs one program the way the dream cycle does. */
export interface ChallengeSandbox {
  run(program: SandboxProgram): Promise<SandboxRunResult>;
}
