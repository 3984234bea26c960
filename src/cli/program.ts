import { Command, CommanderError, Option } from "commander";
import { InvalidInputError } from "../core/errors.js";
import { EXIT, type CliIo } from "./cli-io.js";
import { runCommand } from "./commands/run-command.js";
import { EPISODE_CATALOG } from "./episode-catalog.js";

export interface MainOptions {
  io: CliIo;
  /** Wall clock, for default run-folder names only. */
  now?: () => Date;
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
    .showHelpAfterError("(run with --help for the allowed flags)");

  program
    .command("run")
    .description("Play an example episode and record the run (rollouts, training batches, metrics).")
    .argument("<episode>", `one of: ${Object.entries(EPISODE_CATALOG).map(([name, entry]) => `${name} (${entry.description})`).join("; ")}`)
    .addOption(new Option("--client <client>", "inference client: scripted (deterministic test double) or llama (node-llama-cpp; the default with --model)"))
    .addOption(new Option("--model <file>", "GGUF model to play with on the real engine"))
    .addOption(new Option("--sequences <n>", "sequences the engine decodes in parallel, an integer from 1 to 256").default("4"))
    .addOption(new Option("--seed <n>", "run seed, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--count <n>", "episodes (prompts) to play, an integer ≥ 1").default("16"))
    .addOption(new Option("--batch-size <n>", "episodes per batch (one TrainingBatch each), an integer ≥ 1").default("8"))
    .addOption(new Option("--concurrency <n>", "episodes in flight at once, an integer ≥ 1").default("16"))
    .addOption(new Option("--out <dir>", "run folder (default runs/<episode>-<timestamp>); must not hold a run already"))
    .action(async (episode: string, flags: Record<string, unknown>) => {
      exitCode = await runCommand(episode, flags, io, now);
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit through here with code 0; everything else is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    }
    if (error instanceof InvalidInputError) {
      io.stderr(`error: ${error.message}\n`);
      return EXIT.badInput;
    }
    io.stderr(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.failure;
  }
}
