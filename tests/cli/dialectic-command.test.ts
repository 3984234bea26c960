import { Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { registerDialecticCommand } from "../../src/cli/commands/dialectic-command.js";
import { EXIT } from "../../src/cli/cli-io.js";
import { InvalidInputError } from "../../src/core/errors/index.js";

/** Runs `selfplay dialectic …` as the program would: usage errors and InvalidInputError exit 2. */
async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  let code: number = EXIT.ok;
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), isTerminal: false };
  const program = new Command("selfplay").exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerDialecticCommand(program, { io, now: () => new Date(0), setExitCode: (exit) => (code = exit) });
  try {
    await program.parseAsync(["dialectic", ...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) code = error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    else if (error instanceof InvalidInputError) {
      stderr += `error: ${error.message}\n`;
      code = EXIT.badInput;
    } else throw error;
  }
  return { code, stdout, stderr };
}

describe("selfplay dialectic (scripted demo)", () => {
  it("prints the round history as a table, then the final state and output", async () => {
    const { code, stdout, stderr } = await runCli(["--task", "Write an email validator"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^round\s+score\s+approved\s+issues\s+strategy$/);
    expect(lines.slice(1, 6).map((line) => line.split(/\s{2,}/))).toEqual([
      ["1", "0.55", "no", "too complex to maintain; rules are hard to test", "-"],
      ["2", "0.62", "no", "misses the rare cases; too simple for the task", "-"],
      ["3", "0.55", "no", "too complex to maintain; rules are hard to test", "raise-temperature (flip-flop)"],
      ["4", "0.62", "no", "misses the rare cases; too simple for the task", "inject-constraints (flip-flop)"],
      ["5", "0.91", "yes", "-", "-"],
    ]);
    expect(stdout).toContain("state: converged (oscillation: flip-flop) after 5 round(s); final score 0.91 from round 5; proposer reward 1.090");
    expect(stdout).toMatch(/final output:\nApproach C for "Write an email validator"/);
  });

  it("--json prints {state, pattern, rounds, finalOutput, finalScore}", async () => {
    const { code, stdout } = await runCli(["--task", "Sort a list", "--json", "--max-rounds", "3"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(["state", "pattern", "rounds", "finalOutput", "finalScore"]);
    // Out of rounds right after the first escape: the adaptive engine returns its best proposal (round 2).
    expect(report).toMatchObject({ state: "max_rounds", pattern: "flip-flop", finalScore: 0.62 });
    expect(report.finalOutput).toMatch(/^Approach B for "Sort a list"/);
    expect(report.rounds).toEqual([
      { round: 1, score: 0.55, approved: false, issues: ["too complex to maintain", "rules are hard to test"], strategy: null },
      { round: 2, score: 0.62, approved: false, issues: ["misses the rare cases", "too simple for the task"], strategy: null },
      { round: 3, score: 0.55, approved: false, issues: ["too complex to maintain", "rules are hard to test"], strategy: "raise-temperature" },
    ]);
  });

  it("with several critics, scores are their mean and the run still converges", async () => {
    const { code, stdout } = await runCli(["--task", "Sort a list", "--json", "--critics", "3"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.state).toBe("converged");
    // Focus offsets −0.02, +0.02, +0.01 around the demo's 0.55.
    expect(report.rounds[0].score).toBeCloseTo((0.53 + 0.57 + 0.56) / 3, 12);
  });

  it("prints the same thing for the same seed", async () => {
    const first = await runCli(["--task", "Plan a trip", "--seed", "9"]);
    const second = await runCli(["--task", "Plan a trip", "--seed", "9"]);
    expect(second.stdout).toBe(first.stdout);
  });

  it.each([
    [[], /--task: got undefined|--task: expected the task to propose for/],
    [["--task", "   "], /--task: got " {3}"; expected the task to propose for, as text/],
    [["--task", "x", "--critics", "0"], /--critics: got "0"; expected an integer from 1 to 5/],
    [["--task", "x", "--critics", "6"], /--critics: got "6"; expected an integer from 1 to 5/],
    [["--task", "x", "--max-rounds", "0"], /--max-rounds: got "0"; expected an integer from 1 to 100/],
    [["--task", "x", "--seed", "-1"], /--seed: got "-1"; expected an integer from 0 to 4294967295/],
    [["--task", "x", "--bogus"], /unknown option '--bogus'/],
  ])("rejects %j with exit code 2 and names the flag", async (flags, message) => {
    const { code, stderr, stdout } = await runCli(flags);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe("");
  });
});
