import type { Command } from "commander";
import type { CliIo } from "./cli-io.js";

/** What every command module gets: where to write, the clock, and how to report its exit code. */
export interface CommandContext {
  io: CliIo;
  /** Wall clock, for default folder names and saved timestamps only. */
  now: () => Date;
  /** Environment variables (`SELFPLAY_CONFIG_DIR`, `XDG_CONFIG_HOME`). Default `process.env`; tests inject their own. */
  environment?: Readonly<Record<string, string | undefined>>;
  setExitCode: (code: number) => void;
}

/** A command module adds its commands (and their flags) to the program. */
export type RegisterCommand = (program: Command, context: CommandContext) => void;
