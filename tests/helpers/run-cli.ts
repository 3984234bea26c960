import { main } from "../../src/cli/program.js";

/** What one in-process `selfplay` run returned and printed. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `selfplay <argv>` in this process, not on a terminal and with the clock at the epoch, capturing what it prints. */
export async function runCli(argv: readonly string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false }, now: () => new Date(0) });
  return { code, stdout, stderr };
}
