import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, truncate, writeFile, copyFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Command, CommanderError } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/cli-io.js";
import { registerModelCommands } from "../../src/cli/commands/model-command.js";
import { GgufReader } from "../../src/gguf/gguf-reader.js";
import { validateLoraAdapter } from "../../src/inference/model-files/validate-lora-adapter.js";
import { validateModelFile } from "../../src/inference/model-files/validate-model-file.js";
import { RawGguf } from "../gguf/raw-gguf.js";
import { rewriteGguf } from "../inference/model-files/rewrite-gguf.js";

/** The `selfplay` program with only the model commands, configured as `main` configures it. */
async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), isTerminal: false };
  let code: number = EXIT.ok;
  const program = new Command("selfplay").exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerModelCommands(program, { io, now: () => new Date(0), setExitCode: (exitCode) => (code = exitCode) });
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
  }
  return { code, stdout, stderr };
}

let folder: string;
let llamaPath: string;
let qwenPath: string;
let adapterPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-model-cli-"));
  llamaPath = join(folder, "llama.gguf");
  qwenPath = join(folder, "qwen.gguf");
  adapterPath = join(folder, "adapter.gguf");
  expect((await runCli(["model", "create", "--preset", "tiny", "--arch", "llama", "--seed", "3", "--out", llamaPath])).code).toBe(0);
  expect((await runCli(["model", "create", "--arch", "qwen2", "--out", qwenPath])).code).toBe(0);
  expect((await runCli(["model", "lora", "create", "--base", llamaPath, "--rank", "2", "--out", adapterPath])).code).toBe(0);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

let counter = 0;
const fresh = (name: string) => join(folder, `${counter++}-${name}`);

/** Files that are wrong in each way the commands must report (exit 2, the file named, no stack trace). */
async function badFiles() {
  const notGguf = fresh("notes.gguf");
  await writeFile(notGguf, "just some text\n");
  const truncated = fresh("truncated.gguf");
  await copyFile(llamaPath, truncated);
  await truncate(truncated, 20_000);
  const noFeedForward = await rewriteGguf(llamaPath, fresh("no-ffn.gguf"), (metadata) => void metadata.delete("llama.feed_forward_length"));
  const unknownType = fresh("unknown-type.gguf");
  await writeFile(unknownType, new RawGguf().header(3, 1, 1).string("general.architecture").uint32(8).string("llama").tensorInfo("weight", [4], 99, 0).pad().bytes(new Uint8Array(32)).result());
  return { notGguf, truncated, noFeedForward, unknownType, missing: join(folder, "no-such-model.gguf") };
}

function expectBadInput(result: { code: number; stderr: string }, file: string, problem: RegExp): void {
  expect(result.code).toBe(EXIT.badInput);
  expect(result.stderr).toContain(file);
  expect(result.stderr).toMatch(problem);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe("selfplay model create", () => {
  it("writes a loadable model reproducibly and prints a summary or JSON", async () => {
    const first = fresh("m.gguf");
    const second = fresh("m.gguf");
    const text = await runCli(["model", "create", "--preset", "small", "--arch", "qwen2", "--seed", "9", "--weight-type", "q8_0", "--out", first]);
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toMatch(new RegExp(`^created ${first}: small qwen2 model, [\\d,]+ parameters, q8_0 weights, seed 9\\n$`));
    const json = await runCli(["model", "create", "--preset", "small", "--arch", "qwen2", "--seed", "9", "--weight-type", "q8_0", "--out", second, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ path: second, preset: "small", architecture: "qwen2", seed: 9, weightType: "q8_0", hyperparameters: { embeddingLength: 128 } });
    expect((await readFile(first)).equals(await readFile(second))).toBe(true);
    expect((await validateModelFile(first)).hyperparameters.blockCount).toBe(4);
  });

  it("refuses to overwrite a file unless --force", async () => {
    const path = fresh("kept.gguf");
    await writeFile(path, "precious");
    const refused = await runCli(["model", "create", "--out", path]);
    expectBadInput(refused, path, /--out: .*expected a file that does not exist yet \(pass --force to overwrite it\)/);
    expect(await readFile(path, "utf8")).toBe("precious");
    expect((await runCli(["model", "create", "--out", path, "--force"])).code).toBe(0);
    await validateModelFile(path);
  });

  it.each([
    [["--preset", "huge"], /--preset: got "huge"; expected one of: tiny, small, medium/],
    [["--arch", "gpt2"], /--arch: got "gpt2"; expected one of: llama, qwen2/],
    [["--seed", "-1"], /--seed: got "-1"; expected an integer from 0 to 4294967295/],
    [["--seed", "1.5"], /--seed: got "1.5"; expected an integer/],
    [["--weight-type", "q5_0"], /--weight-type: got "q5_0"; expected one of: f32, f16, q8_0, q4_0/],
    [["--bogus"], /unknown option '--bogus'/],
  ])("rejects %j with exit code 2 and writes nothing", async (flags, message) => {
    const out = fresh("never.gguf");
    const result = await runCli(["model", "create", "--out", out, ...flags]);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it("rejects a missing --out, a folder, and a path in a missing folder", async () => {
    expect(await runCli(["model", "create"])).toMatchObject({ code: 2, stderr: "error: --out: expected a file path\n" });
    const directory = fresh("folder");
    await mkdir(directory);
    expectBadInput(await runCli(["model", "create", "--out", directory, "--force"]), directory, /a file path, not a folder/);
    const orphan = join(folder, "no-such-folder", "m.gguf");
    expectBadInput(await runCli(["model", "create", "--out", orphan]), orphan, /a path in an existing folder/);
    expect((await readdir(directory)).length).toBe(0);
  });
});

describe("selfplay model inspect", () => {
  it("prints metadata with arrays cut short, tensors, and the check's verdict", async () => {
    const { code, stdout, stderr } = await runCli(["model", "inspect", llamaPath]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^${llamaPath}: GGUF v3, 21 metadata keys, 20 tensors \\([\\d,]+ values\\), alignment 32\\n`));
    expect(stdout).toContain('  general.architecture = "llama"\n');
    expect(stdout).toContain('  tokenizer.ggml.tokens = [string × 259: "<pad>", "<s>", "</s>", "Ā", "ā", "Ă", "ă", "Ą", …]\n');
    expect(stdout).toContain("  tokenizer.ggml.merges = []\n");
    expect(stdout).toMatch(/ {2}blk\.0\.ffn_down\.weight +f32 +\[192, 64\]\n/);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe(
      "valid llama model: vocabulary 259, embedding 64, 2 blocks, feed-forward 192, 4 heads (4 key/value), context 256",
    );
  });

  it("prints {metadata, tensors} as JSON, summarising long arrays unless --full-arrays", async () => {
    const { code, stdout } = await runCli(["model", "inspect", llamaPath, "--json"]);
    expect(code).toBe(0);
    const inspection = JSON.parse(stdout);
    expect(Object.keys(inspection)).toEqual(["metadata", "tensors"]);
    expect(inspection.metadata["llama.feed_forward_length"]).toBe(192);
    expect(inspection.metadata["tokenizer.ggml.tokens"]).toEqual({ itemType: "string", length: 259, head: ["<pad>", "<s>", "</s>", "Ā", "ā", "Ă", "ă", "Ą"] });
    expect(inspection.tensors[0]).toEqual({ name: "token_embd.weight", type: "f32", dims: [64, 259] });
    const full = JSON.parse((await runCli(["model", "inspect", llamaPath, "--json", "--full-arrays"])).stdout);
    expect(full.metadata["tokenizer.ggml.tokens"]).toHaveLength(259);
  });

  it("checks an adapter alone, or against --base", async () => {
    const alone = await runCli(["model", "inspect", adapterPath]);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toContain('  general.type = "adapter"\n');
    expect(alone.stdout).toContain("valid llama LoRA adapter: 14 matrices, rank 2, alpha 2 (pass --base <model> to check it against its model)\n");
    const checked = await runCli(["model", "inspect", adapterPath, "--base", llamaPath]);
    expect(checked.stdout).toContain(`; fits ${llamaPath}\n`);
    const mismatched = await runCli(["model", "inspect", adapterPath, "--base", qwenPath, "--json"]);
    expectBadInput(mismatched, adapterPath, /general\.architecture: is "llama" but the base model is "qwen2"/);
    // The file is still printed, so a user sees what is in it.
    expect(JSON.parse(mismatched.stdout).metadata["adapter.type"]).toBe("lora");
    expectBadInput(await runCli(["model", "inspect", llamaPath, "--base", qwenPath]), llamaPath, /--base: .*only with an adapter file/);
    // A general.type of the wrong type would abort llama.cpp; adapter.type still marks the file as an adapter.
    const mistyped = await rewriteGguf(adapterPath, fresh("mistyped.gguf"), (metadata) => void metadata.set("general.type", { type: "uint32", value: 1 }));
    expectBadInput(await runCli(["model", "inspect", mistyped]), mistyped, /general\.type: is a uint32, expected a string/);
  });

  it("reports each bad file with exit code 2 and names the file and the problem", async () => {
    const files = await badFiles();
    expectBadInput(await runCli(["model", "inspect", files.missing]), files.missing, /file not found; check the path/);
    expectBadInput(await runCli(["model", "inspect", files.notGguf]), files.notGguf, /not a GGUF file \(it starts with bytes 6a 75 73 74/);
    expectBadInput(await runCli(["model", "inspect", files.truncated]), files.truncated, /runs past the end of the file \(20000 bytes\); the file is truncated/);
    const noFeedForward = await runCli(["model", "inspect", files.noFeedForward]);
    expectBadInput(noFeedForward, files.noFeedForward, /llama\.feed_forward_length: missing; a model file needs it/);
    expect(noFeedForward.stdout).toContain("llama.embedding_length = 64");
    expectBadInput(await runCli(["model", "inspect", files.unknownType]), files.unknownType, /tensor "weight" has type id 99, which selfplay cannot read/);
    expect(await runCli(["model", "inspect"])).toMatchObject({ code: 2 });
  });
});

describe("selfplay model lora create", () => {
  it("writes an adapter that fits its base, reproducibly, with the chosen targets", async () => {
    const out = fresh("lora.gguf");
    const result = await runCli(["model", "lora", "create", "--base", qwenPath, "--out", out, "--rank", "4", "--alpha", "8", "--seed", "5", "--targets", "attn_q, attn_v", "--json"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({
      path: out,
      base: qwenPath,
      rank: 4,
      alpha: 8,
      seed: 5,
      targets: ["attn_q", "attn_v"],
      adaptedTensors: ["blk.0.attn_q.weight", "blk.0.attn_v.weight", "blk.1.attn_q.weight", "blk.1.attn_v.weight"],
    });
    expect((await validateLoraAdapter(out, qwenPath)).tensors.map((tensor) => tensor.rank)).toEqual([4, 4, 4, 4]);
    const text = await runCli(["model", "lora", "create", "--base", qwenPath, "--out", fresh("lora.gguf"), "--targets", "ffn_up"]);
    expect(text.stdout).toMatch(/^created .*: LoRA adapter for .*qwen\.gguf, rank 8, alpha 8, 2 matrices \(ffn_up\), seed 0\n$/);
  });

  it.each([
    [["--rank", "0"], /--rank: got "0"; expected an integer from 1 to 4096/],
    [["--alpha", "-2"], /--alpha: got "-2"; expected a positive number/],
    [["--alpha", "many"], /--alpha: got "many"; expected a positive number/],
    [["--targets", "attn_q,,ffn_up"], /--targets: .*expected a comma-separated list/],
    [["--targets", "attn_x"], /--targets: got "attn_x"; expected kinds of matrix the base model has: attn_q, attn_k/],
  ])("rejects %j with exit code 2 and writes nothing", async (flags, message) => {
    const out = fresh("never.gguf");
    const result = await runCli(["model", "lora", "create", "--base", llamaPath, "--out", out, ...flags]);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it("rejects a base that is not a valid model", async () => {
    const files = await badFiles();
    for (const [base, problem] of [
      [files.missing, /file not found/],
      [files.noFeedForward, /llama\.feed_forward_length: missing/],
      [adapterPath, /general\.type|tokenizer\.ggml\.model: missing/],
    ] as const) {
      const out = fresh("never.gguf");
      expectBadInput(await runCli(["model", "lora", "create", "--base", base, "--out", out]), base, problem);
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe("selfplay model lora merge", () => {
  it("writes the merged all-f32 model, which differs from the base in the adapted matrices only", async () => {
    const out = fresh("merged.gguf");
    const result = await runCli(["model", "lora", "merge", "--base", llamaPath, "--adapter", adapterPath, "--out", out, "--scale", "-0.5"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(`merged ${adapterPath} (scale -0.5) into ${llamaPath}: 14 matrices changed, all tensors f32 → ${out}\n`);
    await validateModelFile(out);
    const base = await GgufReader.open(llamaPath);
    const merged = await GgufReader.open(out);
    try {
      expect(await merged.readTensor("blk.0.attn_q.weight")).not.toEqual(await base.readTensor("blk.0.attn_q.weight"));
      expect(await merged.readTensor("blk.0.attn_norm.weight")).toEqual(await base.readTensor("blk.0.attn_norm.weight"));
    } finally {
      await base.close();
      await merged.close();
    }
    const json = await runCli(["model", "lora", "merge", "--base", llamaPath, "--adapter", adapterPath, "--out", fresh("merged.gguf"), "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ scale: 1, adaptedTensors: expect.arrayContaining(["blk.1.ffn_down.weight"]) });
  });

  it("reports each bad base or adapter with exit code 2, names the file and the problem, and writes nothing", async () => {
    const files = await badFiles();
    const truncatedAdapter = fresh("truncated-adapter.gguf");
    await copyFile(adapterPath, truncatedAdapter);
    await truncate(truncatedAdapter, 2_000);
    const i32Base = await rewriteGguf(llamaPath, fresh("i32.gguf"), (_, tensors) =>
      tensors.map((tensor) => (tensor.name === "output_norm.weight" ? { ...tensor, type: "i32" } : tensor)),
    );
    const cases: [base: string, adapter: string, named: string, problem: RegExp][] = [
      [files.missing, adapterPath, files.missing, /file not found/],
      [llamaPath, files.missing, files.missing, /file not found/],
      [files.notGguf, adapterPath, files.notGguf, /not a GGUF file/],
      [llamaPath, files.notGguf, files.notGguf, /not a GGUF file/],
      [files.truncated, adapterPath, files.truncated, /the file is truncated/],
      [llamaPath, truncatedAdapter, truncatedAdapter, /the file is truncated/],
      [files.noFeedForward, adapterPath, files.noFeedForward, /llama\.feed_forward_length: missing/],
      [files.unknownType, adapterPath, files.unknownType, /has type id 99, which selfplay cannot read/],
      [i32Base, adapterPath, i32Base, /tensor "output_norm\.weight" has type i32, which selfplay cannot read/],
      [qwenPath, adapterPath, adapterPath, /general\.architecture: is "llama" but the base model is "qwen2"/],
      [llamaPath, llamaPath, llamaPath, /general\.type: missing; an adapter file needs it/],
    ];
    for (const [base, adapter, named, problem] of cases) {
      const out = fresh("never.gguf");
      expectBadInput(await runCli(["model", "lora", "merge", "--base", base, "--adapter", adapter, "--out", out]), named, problem);
      expect(existsSync(out), `${base} + ${adapter}`).toBe(false);
    }
    expect((await readdir(folder)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it.each([
    [["--scale", "big"], /--scale: got "big"; expected a finite number/],
    [["--scale", "Infinity"], /--scale: got "Infinity"; expected a finite number/],
    [["--adapter", ""], /--adapter: got ""; expected a file path/],
  ])("rejects %j with exit code 2", async (flags, message) => {
    const result = await runCli(["model", "lora", "merge", "--base", llamaPath, "--adapter", adapterPath, "--out", fresh("never.gguf"), ...flags]);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toMatch(message);
  });
});

describe("the built binary", () => {
  // dist is built by `npm test` (npm run build) before vitest runs.
  it("exits with code 2, not a crash, and names a missing file", async () => {
    const binary = resolve(import.meta.dirname, "../../dist/src/cli/main.js");
    const missing = join(folder, "absent.gguf");
    const error = await promisify(execFile)(process.execPath, [binary, "model", "inspect", missing]).catch((caught: unknown) => caught);
    const { code, stderr } = error as { code: number; stderr: string };
    expect(code).toBe(2);
    expect(code).toBeLessThan(128);
    expect(stderr).toBe(`error: ${missing}: file not found; check the path\n`);
  });
});
