import type { Command } from "commander";
import type { CliIo } from "./cli-io.js";

/** What every command module gets: where to write, the clock, and how to report its exit code. */
export interface CommandContext {
  io: CliIo;
  /** Wall clock, for default folder names only. */
  now: () => Date;
  setExitCode: (code: number) => void;
}

/** A command module adds its commands (and their flags) to the program. */
export type RegisterCommand = (program: Command, context: CommandContext) => void;
