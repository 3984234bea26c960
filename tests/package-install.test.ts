import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
// Installing from npm's cache (filled by `npm ci`) and building the addon take a few minutes on 2 cores.
const INSTALL_SECONDS = 480;

/** The README's dataset module and its command, exactly as written. */
function readmeExample(): { module: string; command: string[] } {
  const section = readFileSync(join(root, "README.md"), "utf8").split("### Writing an environment")[1] ?? "";
  const module = /```js\n(\/\/ my-env\.js[\s\S]*?)```/.exec(section)?.[1];
  const command = /```bash\n(npx selfplay train --env \.\/my-env\.js[^\n]*)\n```/.exec(section)?.[1];
  if (module === undefined || command === undefined) throw new Error("README.md: the my-env.js example is missing");
  return { module, command: command.split(" ").slice(1) };
}

describe("the packed package in a fresh project (npm pack, npm install from the cache, no link into this checkout)", () => {
  it("installs, and trains the README's dataset example there with `npx selfplay train`", { timeout: 900_000 }, () => {
    const scratch = mkdtempSync(join(tmpdir(), "selfplay-package-"));
    // The build `npm test` made; packing runs no script.
    const [packed] = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], { cwd: root, encoding: "utf8" })) as [{ filename: string }];
    const project = join(scratch, "project");
    execFileSync("mkdir", [project]);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "my-task", private: true, type: "module" }));
    const started = performance.now();
    const install = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(scratch, packed.filename)], {
      cwd: project,
      encoding: "utf8",
      timeout: INSTALL_SECONDS * 1000,
      env: { ...process.env, npm_config_loglevel: "error" },
    });
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    expect((performance.now() - started) / 1000).toBeLessThan(INSTALL_SECONDS);
    // A real copy: no symlink, NODE_PATH or npm link into the checkout.
    expect(lstatSync(join(project, "node_modules", "selfplay")).isSymbolicLink()).toBe(false);
    expect(existsSync(join(project, "node_modules", "onnxruntime-node")), "an optional peer a project installs when it scores ONNX PRMs").toBe(false);

    const { module, command } = readmeExample();
    writeFileSync(join(project, "my-env.js"), module);
    const rows: string[] = [];
    for (let n = 10; n < 100; n++) rows.push(JSON.stringify({ question: `${n}+1=`, answer: String(n + 1) }), JSON.stringify({ question: `${n}-1=`, answer: String(n - 1) }));
    writeFileSync(join(project, "questions.jsonl"), `${rows.join("\n")}\n`);
    const { NODE_PATH: _ignored, ...environment } = process.env;
    const run = spawnSync("npx", ["--offline", ...command], { cwd: project, encoding: "utf8", timeout: 600_000, env: environment });
    expect(run.status, run.stderr).toBe(0);
    // The trainer it used, and why (the addon built in the project, or the reason it fell back).
    expect(run.stderr).toMatch(/^trainer: (ggml|tfjs) \(/m);
    const out = join(project, command[command.indexOf("--out") + 1] as string);
    const steps = readFileSync(join(out, "metrics.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { step: number; trainedRecords?: number; environment?: Record<string, number> })
      .filter((line) => line.trainedRecords !== undefined);
    expect(steps.map((line) => line.step)).toEqual([1, 2, 3]);
    for (const line of steps) expect(Object.keys(line.environment ?? {})).toEqual(expect.arrayContaining(["correct.mean", "close.mean"]));
    expect(existsSync(join(out, "final.gguf"))).toBe(true);
  });
});
