import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { validateModelFile } from "../../src/inference/model-files/validate-model-file.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe("selfplay pretrain (tfjs trainer, real engine for evaluation)", () => {
  it("trains a model from scratch, lowers the loss, evaluates it on the engine, continues with --from (stopping early with --stop-after), and refuses an existing --out", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-pretrain-"));
    const out = join(folder, "base.gguf");
    const flags = ["--batch-size", "8", "--learning-rate", "0.01", "--evaluate-every", "0", "--evaluate-problems", "6"];
    const first = await runCli(["pretrain", "--preset", "tiny", "--steps", "12", ...flags, "--out", out]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ out, steps: 12, n: 6 });
    await validateModelFile(out);
    const lines = (await readFile(`${out}.metrics.jsonl`, "utf8")).trim().split("\n").map((line) => JSON.parse(line));
    const losses = lines.filter((line) => "loss" in line).map((line) => line.loss as number);
    expect(losses).toHaveLength(12);
    expect(losses.slice(-3).reduce((a, b) => a + b) / 3).toBeLessThan(losses.slice(0, 3).reduce((a, b) => a + b) / 3);
    expect(lines.at(-1)).toMatchObject({ step: 12, n: 6 });

    const again = await runCli(["pretrain", "--steps", "2", ...flags, "--out", out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--out: .*does not exist yet/);

    const continued = join(folder, "continued.gguf");
    const second = await runCli(["pretrain", "--from", out, "--steps", "2000", "--stop-after", "2", ...flags, "--out", continued]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ out: continued, steps: 2 });
    const continuedLines = (await readFile(`${continued}.metrics.jsonl`, "utf8")).trim().split("\n").map((line) => JSON.parse(line));
    expect(continuedLines.filter((line) => "loss" in line)).toHaveLength(2);
    expect(second.stderr).toContain(`pretraining ${out}`);
    expect(existsSync(continued)).toBe(true);
  });
});
