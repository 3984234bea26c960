import { Option, type Command } from "commander";
import { z } from "zod";
import { SandboxUnavailableError } from "../../dream/errors/index.js";
import { runInSandbox } from "../../dream/sandbox/run-in-sandbox.js";
import { SandboxProtectionSchema } from "../../dream/sandbox/sandbox-options.js";
import type { SandboxResult } from "../../dream/sandbox/sandbox-result.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";

/** `--allow-missing namespaces,memory-cgroup`: a comma-separated list of protections the run may go without. */
export const ALLOW_MISSING_FLAG = z
  .string()
  .default("")
  .refine((text) => text.split(",").every((item) => item.trim() === "" || SandboxProtectionSchema.safeParse(item.trim()).success), { message: `a comma-separated list of ${SandboxProtectionSchema.options.join(", ")}` })
  .transform((text) => text.split(",").map((item) => SandboxProtectionSchema.safeParse(item.trim()).data).filter((item) => item !== undefined));

export const SandboxRunOptionsSchema = z.object({
  timeoutMs: integerFlag(100, 3_600_000),
  memoryMb: integerFlag(64, 65_536),
  diskMb: integerFlag(1, 65_536),
  maxFiles: integerFlag(16, 10_000_000),
  outputCapBytes: integerFlag(1, 256 * 1024 * 1024),
  allowMissing: ALLOW_MISSING_FLAG,
  json: z.boolean().default(false),
});

/** The fields the command prints, in this order. */
/** The `--allow-missing <list>` option, for every command that runs programs in the sandbox. */
export function allowMissingOption(): Option {
  return new Option("--allow-missing <list>", `protections the run may go without where this machine cannot give them: ${SandboxProtectionSchema.options.join(", ")} (comma-separated)`);
}

function printed(result: SandboxResult) {
  const { status, reason, exitCode, stdout, stderr, wallMs, isolation } = result;
  return { status, reason, exitCode, stdout, stderr, wallMs: Math.round(wallMs * 10) / 10, isolation };
}

function formatResult(result: SandboxResult): string {
  const { isolation } = result;
  const ending = result.signal === null ? `exit code ${result.exitCode}` : `signal ${result.signal}`;
  const lines = [
    `${result.status} (${result.reason}${result.errorCode === null ? "" : `, ${result.errorCode}`}): ${ending} after ${result.wallMs.toFixed(0)} ms`,
    `isolation: namespaces ${isolation.namespaces ? "yes" : "no"}, network ${isolation.network}, filesystem ${isolation.filesystem}, disk ${isolation.disk}, user ${isolation.user}, memory ${isolation.memory}, processes ${isolation.processes}, permission flags ${isolation.permissionFlags ? "on" : "off"}`,
  ];
  if (result.stdout !== "") lines.push("--- stdout ---", result.stdout.replace(/\n$/, ""));
  if (result.stderr !== "") lines.push("--- stderr ---", result.stderr.replace(/\n$/, ""));
  return `${lines.join("\n")}\n`;
}

/**
 * `selfplay sandbox run FILE`: runs one JavaScript program the way the dream
 * cycle runs setups, solutions and validators (a fresh work directory holding
 * a copy of FILE) and prints what happened. Exit 0 when the program exited 0,
 * 1 when it failed or was killed, 2 on bad flags, a missing file, or a
 * protection this machine cannot give that --allow-missing does not list.
 */
export async function sandboxRunCommand(file: string, rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(SandboxRunOptionsSchema, rawOptions);
  const { json: _json, ...limits } = options;
  let result: SandboxResult;
  try {
    result = await runInSandbox({ file, ...limits });
  } catch (error) {
    // A protection this machine cannot give is the caller's decision (--allow-missing), like a bad flag: exit 2, message only.
    if (!(error instanceof SandboxUnavailableError)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return EXIT.badInput;
  }
  for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
  io.stdout(options.json ? `${JSON.stringify(printed(result))}\n` : formatResult(result));
  return result.status === "ok" ? EXIT.ok : EXIT.failure;
}

export function registerSandboxCommand(program: Command, context: CommandContext): void {
  const sandbox = program.command("sandbox").description("The dream cycle's sandbox for untrusted JavaScript programs.");
  sandbox
    .command("run")
    .description("Run one JavaScript program in the sandbox (namespaces as nobody, no network, a capped tmpfs, memory, time, output and process caps) and print {status, reason, exitCode, stdout, stderr, wallMs, isolation}.")
    .argument("<file>", "the JavaScript program; it is copied into a fresh work directory and run there")
    .addOption(new Option("--timeout-ms <n>", "wall-clock limit in milliseconds").default("10000"))
    .addOption(new Option("--memory-mb <n>", "memory cap in MiB (the memory cgroup's limit is this plus --disk-mb)").default("256"))
    .addOption(new Option("--disk-mb <n>", "size of the tmpfs that is the program's /work, in MiB").default("64"))
    .addOption(new Option("--max-files <n>", "files and folders the tmpfs may hold").default("4096"))
    .addOption(allowMissingOption())
    .addOption(new Option("--output-cap-bytes <n>", "bytes of stdout + stderr kept before the run is killed").default(String(1024 * 1024)))
    .addOption(new Option("--json", "print the result as one JSON object"))
    .action(async (file: string, flags: Record<string, unknown>) => context.setExitCode(await sandboxRunCommand(file, flags, context)));
}
