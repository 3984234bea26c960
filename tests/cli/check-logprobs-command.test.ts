import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerCheckLogprobsCommand } from "../../src/cli/commands/check-logprobs-command.js";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";

/** Runs the command on its own program, as `main` would once it is registered there. */
async function runCommand(argv: string[]) {
  let stdout = "";
  let stderr = "";
  let exitCode = -1;
  const program = new Command("selfplay").exitOverride().configureOutput({ writeOut: (text) => void (stdout += text), writeErr: (text) => void (stderr += text) });
  registerCheckLogprobsCommand(program, {
    io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false },
    now: () => new Date(0),
    setExitCode: (code) => (exitCode = code),
  });
  await program.parseAsync(argv, { from: "user" });
  return { exitCode, stdout, stderr };
}

let folder: string;
let modelPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-check-logprobs-cli-"));
  modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "qwen2", seed: 2 })).path;
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("selfplay check-logprobs", () => {
  it("prints {maxAbsDiff, meanAbsDiff, mismatchKl, tokens, …} as one JSON object with --json", async () => {
    const { exitCode, stdout } = await runCommand(["check-logprobs", "--model", modelPath, "--tokens", "150", "--json"]);
    expect(exitCode).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const result = JSON.parse(stdout);
    expect(result.tokens).toBeGreaterThanOrEqual(150);
    expect(result.maxAbsDiff).toBeLessThan(1e-4);
    for (const key of ["meanAbsDiff", "mismatchKl"]) expect(Number.isFinite(result[key])).toBe(true);
    expect(result.constrained.tokens).toBe(0);
  });

  it("prints a one-line summary without --json", async () => {
    const { stdout } = await runCommand(["check-logprobs", "--model", modelPath, "--tokens", "50", "--sequences", "2"]);
    expect(stdout).toMatch(/^check-logprobs: \d+ tokens in \d+ sequences \(positions up to \d+\), max \|Δ\| \d\.\d\de-\d+, p99 \|Δ\| \d\.\d\de-\d+, mean \|Δ\| .*mismatch KL \(k3\) .*; tfjs backend \w+/);
  });

  it("rejects a bad flag with the flag's name, before loading anything", async () => {
    await expect(runCommand(["check-logprobs", "--model", modelPath, "--tokens", "0"])).rejects.toThrow(InvalidInputError);
    await expect(runCommand(["check-logprobs", "--model", modelPath, "--sequences", "x"])).rejects.toThrow(/--sequences: got "x"; expected an integer from 1 to 256/);
    await expect(runCommand(["check-logprobs"])).rejects.toThrow(/required option '--model <file>' not specified/);
  });
});
