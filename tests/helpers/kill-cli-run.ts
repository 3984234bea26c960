import { spawn } from "node:child_process";
import { resolve } from "node:path";

/** The built CLI (dist/): `npm run build` first, as `npm test` does. */
const CLI = resolve(import.meta.dirname, "../../dist/src/cli/main.js");

/**
 * Runs `selfplay <argv>` in a child process and SIGKILLs it the moment its stderr matches `when` (event-driven:
 * the kill lands wherever the run is then). Resolves to the signal the child ended by (null if it exited on its
 * own) and what it printed on stderr.
 */
export async function killCliRunWhen(argv: readonly string[], when: RegExp): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...argv], { stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    if (when.test(stderr)) child.kill("SIGKILL");
  });
  return { signal: await exited, stderr };
}
