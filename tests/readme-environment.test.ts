import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../src/inference/model-files/bundled-models.js";
import { maxWeightDifference } from "./training/reports/run-comparison.js";

const root = resolve(import.meta.dirname, "..");

/** The README's "Writing an environment" module and the command that trains it, exactly as written there. */
function readmeEnvironment(): { module: string; command: string[] } {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Writing an environment"));
  const module = /```js\n(\/\/ my-environment\.js[\s\S]*?)```/.exec(section)?.[1];
  const command = /```bash\n(npx selfplay train --env \.\/my-environment\.js[^\n]*)\n```/.exec(section)?.[1];
  if (module === undefined || command === undefined) throw new Error("README.md: the Writing an environment example is missing");
  return { module, command: command.split(" ").slice(2) };
}

describe("the README's environment example, copied as written (real engine, bundled base)", () => {
  it("trains the steps its command asks for, each with trainable records, and changes the weights", async () => {
    const { module, command } = readmeEnvironment();
    // Inside the package folder, so `import … from "selfplay"` resolves to this package as it would in a user's project.
    const folder = join(root, ".cache", "readme-environment");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "my-environment.js"), module);
    const out = join(mkdtempSync(join(tmpdir(), "selfplay-readme-env-")), "doubling");
    const argv = command.map((argument, index) => (command[index - 1] === "--out" ? out : argument));
    const run = spawnSync(process.execPath, [join(root, "dist", "src", "cli", "main.js"), ...argv], { cwd: folder, encoding: "utf8", timeout: 300_000 });
    expect(run.status, run.stderr).toBe(0);
    const steps = readFileSync(join(out, "metrics.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { step: number; trainedRecords?: number });
    expect(steps.map((line) => line.step)).toEqual([1, 2, 3]);
    for (const line of steps) expect(line.trainedRecords).toBeGreaterThan(0);
    expect(await maxWeightDifference(bundledArithmeticBase(), join(out, "final.gguf"))).toBeGreaterThan(1e-6);
  });
});
