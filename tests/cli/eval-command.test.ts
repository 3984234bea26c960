import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe("selfplay eval (real engine)", () => {
  let folder: string;
  let modelPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-eval-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
  });

  it("scores held-out problems drawn with a seed, greedy and pass@k, per cluster", async () => {
    const argv = ["eval", "--model", modelPath, "--task", "arithmetic", "--n", "12", "--seed", "4", "--samples", "2", "--sequences", "4", "--json"];
    const { code, stdout, stderr } = await runCli(argv);
    // Nothing but the device line (auto: the CPU here).
    expect(stderr).toMatch(/^device: CPU \(.*\) — auto: ggml found no GPU\n$/);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { accuracy: number; n: number; correct: number; passAtK: { k: number; value: number }; byCluster: Record<string, { n: number }> };
    expect(result.n).toBe(12);
    expect(result.accuracy).toBe(result.correct / 12);
    expect(result.passAtK.k).toBe(2);
    expect(result.passAtK.value).toBeGreaterThanOrEqual(0);
    expect(Object.values(result.byCluster).reduce((sum, cluster) => sum + cluster.n, 0)).toBe(12);
    expect((await runCli(argv)).stdout).toBe(stdout);
  });

  it("reads a problems file, and names the line of a bad one", async () => {
    const problems = join(folder, "problems.jsonl");
    await writeFile(problems, '{"problem": "2+2", "answer": "4"}\n{"problem": "9-12", "answer": -3}\n');
    const { code, stdout } = await runCli(["eval", "--model", modelPath, "--problems", problems, "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).n).toBe(2);
    const bad = join(folder, "bad.jsonl");
    await writeFile(bad, '{"problem": "2+2"}\n{"problem": "1+1", "answer": "2"}\n');
    const failure = await runCli(["eval", "--model", modelPath, "--problems", bad]);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/bad\.jsonl:1/);
  });

});
