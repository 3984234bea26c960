import { Option, type Command } from "commander";
import { z } from "zod";
import { runInSandbox } from "../../dream/sandbox/run-in-sandbox.js";
import type { SandboxResult } from "../../dream/sandbox/sandbox-result.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";

export const SandboxRunOptionsSchema = z.object({
  timeoutMs: integerFlag(100, 3_600_000),
  memoryMb: integerFlag(64, 65_536),
  outputCapBytes: integerFlag(1, 256 * 1024 * 1024),
  json: z.boolean().default(false),
});

/** The fields the command prints, in this order. */
function printed(result: SandboxResult) {
  const { status, reason, exitCode, stdout, stderr, wallMs, isolation } = result;
  return { status, reason, exitCode, stdout, stderr, wallMs: Math.round(wallMs * 10) / 10, isolation };
}

function formatResult(result: SandboxResult): string {
  const { isolation } = result;
  const ending = result.signal === null ? `exit code ${result.exitCode}` : `signal ${result.signal}`;
  const lines = [
    `${result.status} (${result.reason}${result.errorCode === null ? "" : `, ${result.errorCode}`}): ${ending} after ${result.wallMs.toFixed(0)} ms`,
    `isolation: namespaces ${isolation.namespaces ? "yes" : "no"}, network ${isolation.network}, filesystem ${isolation.filesystem}, memory ${isolation.memory}, processes ${isolation.processes}, permission flags ${isolation.permissionFlags ? "on" : "off"}`,
  ];
  if (result.stdout !== "") lines.push("--- stdout ---", result.stdout.replace(/\n$/, ""));
  if (result.stderr !== "") lines.push("--- stderr ---", result.stderr.replace(/\n$/, ""));
  return `${lines.join("\n")}\n`;
}

/**
 * `selfplay sandbox run FILE`: runs one JavaScript program the way the dream
 * cycle runs setups, solutions and validators (a fresh work directory holding
 * a copy of FILE) and prints what happened. Exit 0 when the program exited 0,
 * 1 when it failed or was killed, 2 on bad flags or a missing file.
 */
export async function sandboxRunCommand(file: string, rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(SandboxRunOptionsSchema, rawOptions);
  const result = await runInSandbox({ file, timeoutMs: options.timeoutMs, memoryMb: options.memoryMb, outputCapBytes: options.outputCapBytes });
  for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
  io.stdout(options.json ? `${JSON.stringify(printed(result))}\n` : formatResult(result));
  return result.status === "ok" ? EXIT.ok : EXIT.failure;
}

export function registerSandboxCommand(program: Command, context: CommandContext): void {
  const sandbox = program.command("sandbox").description("The dream cycle's sandbox for untrusted JavaScript programs.");
  sandbox
    .command("run")
    .description("Run one JavaScript program in the sandbox (namespaces, no network, memory, time, output and process caps) and print {status, reason, exitCode, stdout, stderr, wallMs, isolation}.")
    .argument("<file>", "the JavaScript program; it is copied into a fresh work directory and run there")
    .addOption(new Option("--timeout-ms <n>", "wall-clock limit in milliseconds").default("10000"))
    .addOption(new Option("--memory-mb <n>", "memory cap in MiB (RLIMIT_DATA; V8's heap gets 3/4 of it)").default("256"))
    .addOption(new Option("--output-cap-bytes <n>", "bytes of stdout + stderr kept before the run is killed").default(String(1024 * 1024)))
    .addOption(new Option("--json", "print the result as one JSON object"))
    .action(async (file: string, flags: Record<string, unknown>) => context.setExitCode(await sandboxRunCommand(file, flags, context)));
}
