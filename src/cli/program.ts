import { Command, CommanderError } from "commander";
import { EnvironmentModuleError } from "../environments/errors/index.js";
import {
  DeviceBuildConflictError,
  DeviceNotFoundError,
  AdapterMismatchError,
  InvalidAdapterFileError,
  InvalidModelFileError,
  UnsupportedSchemaError,
  EndpointUnavailableError,
  ServerCapabilityError,
  PolicyVersionMismatchError,
} from "../inference/errors/index.js";
import { CorruptJsonlError, InvalidInputError } from "../core/errors/index.js";
import { EpisodeModuleError } from "../arena/pool/errors/index.js";
import { GgufError } from "../gguf/errors/index.js";
import { PoolDefaultError } from "./errors/index.js";
import { PrmModelError } from "../frontier/errors/index.js";
import { NothingTrainedError, RolloutsFailedError, TrainingDivergedError } from "../training/loop/errors/index.js";
import { EXIT, type CliIo } from "./cli-io.js";
import { errorReport } from "./error-report.js";
import type { CommandContext, RegisterCommand } from "./command-context.js";
import { registerBenchCommands } from "./commands/bench-command.js";
import { registerCheckLogprobsCommand } from "./commands/check-logprobs-command.js";
import { registerDevicesCommand } from "./commands/devices-command.js";
import { registerDialecticCommand } from "./commands/dialectic-command.js";
import { registerDreamCommand } from "./commands/dream-command.js";
import { registerEvalCommand } from "./commands/eval-command.js";
import { registerExploitsCommands } from "./commands/exploits-command.js";
import { registerExportCommand } from "./commands/export-command.js";
import { registerGenerateCommand } from "./commands/generate-command.js";
import { registerModelCommands } from "./commands/model-command.js";
import { registerPretrainCommand } from "./commands/pretrain-command.js";
import { registerPrmCommands } from "./commands/prm-command.js";
import { registerReplayCommand } from "./commands/replay-command.js";
import { registerRiddlesCommand } from "./commands/riddles-command.js";
import { registerRunCommand } from "./commands/run-command.js";
import { registerSandboxCommand } from "./commands/sandbox-command.js";
import { registerTrainCommand } from "./commands/train-command.js";
import { registerTrainCompareCommand } from "./commands/train-compare-command.js";
import { registerTournamentCommand } from "./commands/tournament-command.js";

/** Errors that mean the user's input (a flag, a file) was wrong: exit 2 with the message alone, no stack. */
const BAD_INPUT_ERRORS = [InvalidInputError, EnvironmentModuleError, EpisodeModuleError, CorruptJsonlError, GgufError, InvalidModelFileError, InvalidAdapterFileError, AdapterMismatchError, UnsupportedSchemaError, PrmModelError, PoolDefaultError, DeviceNotFoundError, DeviceBuildConflictError, EndpointUnavailableError, ServerCapabilityError];

/** Runs that stopped for a reason the message explains in full (exit 1): the message without a stack. */
const EXPLAINED_RUN_FAILURES = [RolloutsFailedError, NothingTrainedError, TrainingDivergedError, PolicyVersionMismatchError];

/** Every command module, in the order `--help` lists them. */
const COMMANDS: readonly RegisterCommand[] = [registerRunCommand, registerGenerateCommand, registerDialecticCommand, registerModelCommands, registerPretrainCommand, registerEvalCommand, registerCheckLogprobsCommand, registerTrainCommand, registerTrainCompareCommand, registerExportCommand, registerPrmCommands, registerTournamentCommand, registerRiddlesCommand, registerBenchCommands, registerDevicesCommand, registerReplayCommand, registerExploitsCommands, registerSandboxCommand, registerDreamCommand];

export interface MainOptions {
  io: CliIo;
  /** Wall clock, for default run-folder names and saved timestamps only. */
  now?: () => Date;
  /** Environment variables the commands read (this machine's pool default). Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** Runs the `selfplay` CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], options: MainOptions): Promise<number> {
  const { io } = options;
  const now = options.now ?? (() => new Date());
  let exitCode: number = EXIT.ok;
  const program = new Command("selfplay")
    .description("Self-play reinforcement learning for local language models.")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    // Read where errors are reported, below: any command takes it.
    .option("--verbose", "on an error, print the stacks (selfplay's frames included) of the error and of what caused it")
    .showHelpAfterError("(run with --help for the allowed flags)");

  const context: CommandContext = { io, now, environment: options.environment ?? process.env, setExitCode: (code) => (exitCode = code) };
  for (const register of COMMANDS) register(program, context);

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit through here with code 0; everything else is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    }
    // A user's own error (what their reward function threw…) is shown as the cause, with its line in their file; selfplay's frames only with --verbose.
    const verbose = program.opts<{ verbose?: boolean }>().verbose === true;
    if (error instanceof Error && BAD_INPUT_ERRORS.some((kind) => error instanceof kind)) {
      io.stderr(errorReport(error, { verbose, kind: "input" }));
      return EXIT.badInput;
    }
    if (error instanceof Error && EXPLAINED_RUN_FAILURES.some((kind) => error instanceof kind)) {
      io.stderr(errorReport(error, { verbose, kind: "explained" }));
      return EXIT.failure;
    }
    io.stderr(errorReport(error, { verbose, kind: "unexpected" }));
    return EXIT.failure;
  }
}
