import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KERNEL_FILE_MAX_BYTES } from "../../src/tournament/kernel/load-kernel.js";

// A kernel file the CLI is still reading when SIGTERM comes: the process ends at once (nothing in the CLI holds the
// signal back, and no parse outlasts its bounds), rather than running on as it did for minutes on a 12 MB mapping.

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-kernel-sigterm-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("selfplay tournament --kernel under SIGTERM", () => {
  it("ends within a second of SIGTERM while reading the largest kernel file it accepts", async () => {
    // One mapping of as many keys as fit under the cap: the slowest shape of file for the YAML reader.
    let text = "";
    for (let index = 0; text.length < KERNEL_FILE_MAX_BYTES - 32; index++) text += `k${index}: ${index}\n`;
    const kernel = join(folder, "many-keys.yaml");
    await writeFile(kernel, text);
    const binary = resolve(import.meta.dirname, "../../dist/src/cli/main.js");
    const child = spawn(process.execPath, [binary, "tournament", "--kernel", kernel, "--seed", "1", "--episodes", "1000", "--rounds", "50"], { stdio: "ignore" });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) =>
      child.once("exit", (code, signal) => done({ code, signal, at: performance.now() })),
    );
    await new Promise((wait) => setTimeout(wait, 150));
    const sent = performance.now();
    child.kill("SIGTERM");
    const { code, signal, at } = await exited;
    // Either the signal ended it, or it had already refused the file (exit 2) before the signal came.
    expect(signal === "SIGTERM" || code === 2, `code ${code}, signal ${signal}`).toBe(true);
    expect(at - sent).toBeLessThan(1000);
  });
});
