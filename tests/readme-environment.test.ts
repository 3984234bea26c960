import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../src/inference/model-files/bundled-models.js";
import { maxWeightDifference } from "./training/reports/run-comparison.js";

const root = resolve(import.meta.dirname, "..");

/** A module example and the command that trains it, exactly as written in `markdown` under `heading`. */
function example(markdown: string, heading: string, file: string): { module: string; command: string[] } {
  const text = readFileSync(join(root, markdown), "utf8");
  const section = text.slice(text.indexOf(heading));
  const escaped = file.replace(/[.]/g, "\\.");
  const module = new RegExp(`\`\`\`js\\n(// ${escaped}[\\s\\S]*?)\`\`\``).exec(section)?.[1];
  const command = new RegExp(`\`\`\`bash\\n(npx selfplay train --env \\./${escaped}[^\\n]*)\\n\`\`\``).exec(section)?.[1];
  if (module === undefined || command === undefined) throw new Error(`${markdown}: the ${file} example under "${heading}" is missing`);
  return { module, command: command.split(" ").slice(2) };
}

/** Runs an example's command in a folder inside the package (so `import … from "selfplay"` resolves to this package, as in a user's project). */
async function trainExample({ module, command }: { module: string; command: string[] }, file: string, files: Record<string, string> = {}) {
  const folder = join(root, ".cache", "readme-environment");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, file), module);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const out = join(mkdtempSync(join(tmpdir(), "selfplay-readme-env-")), "run");
  const argv = command.map((argument, index) => (command[index - 1] === "--out" ? out : argument));
  const run = spawnSync(process.execPath, [join(root, "dist", "src", "cli", "main.js"), ...argv], { cwd: folder, encoding: "utf8", timeout: 300_000 });
  expect(run.status, run.stderr).toBe(0);
  const steps = readFileSync(join(out, "metrics.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { step: number; trainedRecords?: number; environment?: Record<string, number> })
    .filter((line) => line.trainedRecords !== undefined);
  for (const line of steps) expect(line.trainedRecords).toBeGreaterThan(0);
  expect(await maxWeightDifference(bundledArithmeticBase(), join(out, "final.gguf"))).toBeGreaterThan(1e-6);
  return { steps, stdout: run.stdout, stderr: run.stderr };
}

/** The README's data file: N+1= and N-1= for N in 10–99. */
function plusMinusOne(): string {
  const lines: string[] = [];
  for (let n = 10; n < 100; n++) lines.push(JSON.stringify({ question: `${n}+1=`, answer: String(n + 1) }), JSON.stringify({ question: `${n}-1=`, answer: String(n - 1) }));
  return `${lines.join("\n")}\n`;
}

describe("the environment examples, copied as written (real engine, bundled base)", () => {
  it("README.md's dataset module trains the steps its command asks for, logs each reward function's mean and std, and changes the weights", async () => {
    const { steps } = await trainExample(example("README.md", "### Writing an environment", "my-env.js"), "my-env.js", { "questions.jsonl": plusMinusOne() });
    expect(steps.map((line) => line.step)).toEqual([1, 2, 3]);
    for (const line of steps) expect(Object.keys(line.environment ?? {})).toEqual(expect.arrayContaining(["correct.mean", "correct.std", "close.mean", "close.std"]));
  });

  it("docs/tasks.md's environment with its own episodes trains the steps its command asks for and changes the weights", async () => {
    const { steps } = await trainExample(example("docs/tasks.md", "## Writing an environment", "my-environment.js"), "my-environment.js");
    expect(steps.map((line) => line.step)).toEqual([1, 2]);
  });
});
