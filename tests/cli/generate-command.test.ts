import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { createRandomLoraAdapter } from "../../src/inference/model-files/create-random-lora-adapter.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe("selfplay generate (real engine)", () => {
  let folder: string;
  let modelPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-generate-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 8 })).path;
  });

  it("prints the text and every token with its id and logprob; the same seed repeats it", async () => {
    const argv = ["generate", "--model", modelPath, "--prompt", "Hello", "--temperature", "0.8", "--seed", "3", "--max-tokens", "12", "--json"];
    const first = await runCli(argv);
    // Nothing but the device line (auto: the CPU here) and the engine's context and threads under it.
    expect(first.stderr).toMatch(/^device: CPU \(.*\) — auto: ggml found no GPU\nengine: \d+-token context a sequence \(.*\), \d+ decode thread\(s\) \(.*\)\n$/);
    expect(first.code).toBe(0);
    const output = JSON.parse(first.stdout) as { text: string; tokens: Array<{ id: number; text: string; logprob: number }> };
    expect(output.tokens.length).toBeGreaterThan(0);
    expect(output.tokens.length).toBeLessThanOrEqual(12);
    for (const token of output.tokens) {
      expect(Number.isInteger(token.id)).toBe(true);
      expect(token.logprob).toBeLessThanOrEqual(0);
    }
    // Byte tokens: the text is the tokens' bytes (the end-of-sequence token, if sampled, adds none).
    const bytes = output.tokens.filter((token) => token.id >= 3).map((token) => token.id - 3);
    expect(Buffer.from(bytes).toString("utf8")).toBe(output.text);
    expect((await runCli(argv)).stdout).toBe(first.stdout);
  });

  it("applies a LoRA adapter", async () => {
    const adapter = (await createRandomLoraAdapter({ baseModelPath: modelPath, path: join(folder, "adapter.gguf"), rank: 4, seed: 1, initialisationScale: 0.3 })).path;
    const argv = ["generate", "--model", modelPath, "--prompt", "Hello", "--seed", "3", "--max-tokens", "8", "--json"];
    const plain = JSON.parse((await runCli(argv)).stdout) as { tokens: Array<{ logprob: number }> };
    const adapted = JSON.parse((await runCli([...argv, "--lora", adapter])).stdout) as { tokens: Array<{ logprob: number }> };
    expect(adapted.tokens[0]!.logprob).not.toBeCloseTo(plain.tokens[0]!.logprob, 4);
  });

  it.each([
    [["--prompt", "x", "--temperature", "-1"], /--temperature: got "-1"; expected a number from 0 to 100/],
    [["--prompt", "x", "--max-tokens", "0"], /--max-tokens: got "0"; expected an integer from 1/],
    [[], /--prompt: .*expected the text to complete/],
  ])("rejects %j with exit code 2", async (flags, message) => {
    const { code, stderr } = await runCli(["generate", "--model", modelPath, ...flags]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it("names the file when the model is missing", async () => {
    const { code, stderr } = await runCli(["generate", "--model", join(folder, "absent.gguf"), "--prompt", "x"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/absent\.gguf/);
  });
});
