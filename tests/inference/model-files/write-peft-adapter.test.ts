import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { PeftConversionError } from "../../../src/inference/errors/index.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { createRandomLoraAdapter } from "../../../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { mergeLoraAdapter } from "../../../src/inference/model-files/merge-lora-adapter.js";
import { writePeftAdapter } from "../../../src/inference/model-files/write-peft-adapter.js";
import { rewriteGguf } from "./rewrite-gguf.js";

const reader = join(import.meta.dirname, "read-peft-adapter.py");
// Debian's python3 (not a pyenv shim) with python3-numpy: .ci/run installs it.
const PYTHON = "/usr/bin/python3";

function readerAvailable(): boolean {
  if (spawnSync(PYTHON, ["-c", "import numpy"], { encoding: "utf8" }).status === 0) return true;
  if (process.env.SELFPLAY_REQUIRE_NUMPY === "1") throw new Error("SELFPLAY_REQUIRE_NUMPY=1 but /usr/bin/python3 cannot import numpy: apt-get install python3-numpy");
  return false;
}

/** The Hugging Face modules in PEFT's names, by GGUF kind, written out here rather than taken from the source; in the base file's order (llama.cpp's: gate, down, up). */
const MODULES: [string, string][] = [
  ["attn_q", "self_attn.q_proj"],
  ["attn_k", "self_attn.k_proj"],
  ["attn_v", "self_attn.v_proj"],
  ["attn_output", "self_attn.o_proj"],
  ["ffn_gate", "mlp.gate_proj"],
  ["ffn_down", "mlp.down_proj"],
  ["ffn_up", "mlp.up_proj"],
];

interface PeftReport {
  headerLength: number;
  headerStartsWithBrace: boolean;
  dataStart: number;
  contiguous: boolean;
  metadata: Record<string, string> | null;
  names: string[];
  dtypes: string[];
  shapes: Record<string, number[]>;
  config: Record<string, unknown>;
  pairs: Record<string, { a: boolean; b: boolean; bAsStored: boolean; permuted: boolean; unmapped?: true }>;
  deltas: Record<string, { maxDifference: number; maxMagnitude: number }>;
}

/**
 * Runs the independent reader on `folder` against the GGUF adapter's tensors and, for `deltaBlock`'s matrices,
 * what merging the adapter into the base added to them (merged − base, the update llama.cpp applies).
 */
async function readBack(folder: string, adapterPath: string, baseModelPath: string, deltaBlock: number): Promise<PeftReport> {
  const adapter = await GgufReader.open(adapterPath);
  const base = await GgufReader.open(baseModelPath);
  const merged = await mergeLoraAdapter({ baseModelPath, adapterPath, out: join(directory, `merged-${Date.now()}.gguf`) });
  const mergedReader = await GgufReader.open(merged.path);
  try {
    const architecture = base.metadata.get("general.architecture")?.value as string;
    const headCount = base.metadata.get(`${architecture}.attention.head_count`)?.value as number;
    const headCountKv = (base.metadata.get(`${architecture}.attention.head_count_kv`)?.value as number | undefined) ?? headCount;
    const tensors: Record<string, { a: { dims: number[]; values: number[] }; b: { dims: number[]; values: number[] } }> = {};
    const deltas: Record<string, { dims: number[]; values: number[] }> = {};
    for (const tensor of adapter.tensors) {
      const baseName = tensor.name.replace(/\.lora_[ab]$/, "");
      const part = tensor.name.endsWith(".lora_a") ? "a" : "b";
      tensors[baseName] ??= {} as (typeof tensors)[string];
      (tensors[baseName] as Record<string, unknown>)[part] = { dims: [...tensor.dims], values: Array.from(await adapter.readTensor(tensor.name)) };
      if (part === "a" && baseName.startsWith(`blk.${deltaBlock}.`)) {
        const before = await base.readTensor(baseName);
        const after = await mergedReader.readTensor(baseName);
        deltas[baseName] = { dims: [...(base.findTensor(baseName)?.dims ?? [])], values: Array.from(after, (value, index) => value - (before[index] as number)) };
      }
    }
    const expectedPath = join(directory, `expected-${Date.now()}.json`);
    await writeFile(expectedPath, JSON.stringify({ architecture, headCount, headCountKv, tensors, deltas }));
    return JSON.parse(execFileSync(PYTHON, [reader, folder, expectedPath], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })) as PeftReport;
  } finally {
    await Promise.all([adapter.close(), base.close(), mergedReader.close()]);
  }
}

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-peft-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe.runIf(readerAvailable())("writePeftAdapter, read back by an independent reader (python struct + json + numpy)", () => {
  it("writes the arithmetic base's adapter (llama, 4 heads, 2 KV heads) with every matrix equal to the GGUF's, q and k rows in Hugging Face rope order, and B @ A the merged delta", async () => {
    const baseModelPath = bundledArithmeticBase();
    const adapterPath = join(directory, "policy-v1.lora.gguf");
    // alpha / rank = 2, so a missing or doubled scaling shows in the delta.
    await createRandomLoraAdapter({ baseModelPath, path: adapterPath, rank: 4, alpha: 8, seed: 5 });
    const out = join(directory, "policy-v1.peft");
    const written = await writePeftAdapter({ adapterPath, baseModelPath, out, baseModelNameOrPath: "selfplay/arithmetic-base" });
    const expectedNames = [0, 1, 2, 3].flatMap((block) => MODULES.flatMap(([, module]) => ["A", "B"].map((part) => `base_model.model.model.layers.${block}.${module}.lora_${part}.weight`)));
    expect(written).toEqual({ path: out, rank: 4, alpha: 8, targetModules: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"], tensorNames: expectedNames });
    expect((await readdir(directory)).filter((name) => name.includes(".tmp") || name.includes(".old"))).toEqual([]);
    expect((await readdir(out)).sort()).toEqual(["adapter_config.json", "adapter_model.safetensors"]);

    const report = await readBack(out, adapterPath, baseModelPath, 0);
    expect(report.headerStartsWithBrace).toBe(true);
    expect(report.dataStart % 8).toBe(0);
    expect(report.contiguous).toBe(true);
    expect(report.metadata).toEqual({ format: "pt" });
    expect(report.dtypes).toEqual(["F32"]);
    expect(report.names).toEqual(expectedNames);
    // width 128, 2 KV heads of 32, feed-forward 384, r 4: PEFT's lora_A is (r, in), lora_B (out, r).
    expect(report.shapes).toMatchObject({
      "base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight": [4, 128],
      "base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight": [128, 4],
      "base_model.model.model.layers.0.self_attn.k_proj.lora_B.weight": [64, 4],
      "base_model.model.model.layers.0.mlp.gate_proj.lora_B.weight": [384, 4],
      "base_model.model.model.layers.0.mlp.down_proj.lora_A.weight": [4, 384],
      "base_model.model.model.layers.0.mlp.down_proj.lora_B.weight": [128, 4],
    });
    expect(report.config).toEqual({
      peft_type: "LORA",
      task_type: "CAUSAL_LM",
      base_model_name_or_path: "selfplay/arithmetic-base",
      r: 4,
      lora_alpha: 8,
      target_modules: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
      bias: "none",
      lora_dropout: 0,
      fan_in_fan_out: false,
      use_rslora: false,
      use_dora: false,
      modules_to_save: null,
      init_lora_weights: true,
      inference_mode: true,
    });

    expect(Object.keys(report.pairs)).toHaveLength(28);
    for (const [baseName, pair] of Object.entries(report.pairs)) {
      const roped = /\.attn_[qk]\./.test(baseName);
      // Every lora_A as the GGUF holds it; every lora_B too once llama.cpp's permutation is applied, which moves q's and k's rows.
      expect(pair, baseName).toEqual({ a: true, b: true, bAsStored: !roped, permuted: roped });
    }
    expect(Object.keys(report.deltas).sort()).toEqual(MODULES.map(([kind]) => `blk.0.${kind}.weight`).sort());
    for (const [baseName, { maxDifference, maxMagnitude }] of Object.entries(report.deltas)) {
      expect(maxMagnitude, baseName).toBeGreaterThan(1e-3);
      // float32 rounding of W + delta in the merged file: about |W| · 6e-8.
      expect(maxDifference, baseName).toBeLessThan(1e-6);
    }
  });

  it("keeps a qwen2 adapter's rows as they are (rotate-half rope in both) and lists only the targets adapted", async () => {
    const baseModelPath = (await createRandomModel({ path: join(directory, "qwen2.gguf"), preset: "small", architecture: "qwen2", seed: 1 })).path;
    const adapterPath = join(directory, "qwen2-adapter.gguf");
    await createRandomLoraAdapter({ baseModelPath, path: adapterPath, rank: 2, alpha: 0.5, seed: 2, targets: ["attn_k", "ffn_down"] });
    const out = join(directory, "qwen2-adapter.peft");
    const written = await writePeftAdapter({ adapterPath, baseModelPath, out });
    expect(written.targetModules).toEqual(["k_proj", "down_proj"]);
    const report = await readBack(out, adapterPath, baseModelPath, 2);
    expect(report.config).toMatchObject({ r: 2, lora_alpha: 0.5, target_modules: ["k_proj", "down_proj"], base_model_name_or_path: null });
    expect(Object.values(report.pairs)).toEqual(Array.from({ length: 8 }, () => ({ a: true, b: true, bAsStored: true, permuted: false })));
    for (const { maxDifference, maxMagnitude } of Object.values(report.deltas)) {
      expect(maxMagnitude).toBeGreaterThan(1e-4);
      expect(maxDifference).toBeLessThan(1e-6);
    }
  });

  it("replaces a folder already there with the new adapter, leaving no temporary folder", async () => {
    const baseModelPath = bundledArithmeticBase();
    const out = join(directory, "again.peft");
    const first = join(directory, "again-1.gguf");
    const second = join(directory, "again-2.gguf");
    await createRandomLoraAdapter({ baseModelPath, path: first, rank: 2, seed: 1, targets: ["attn_v"] });
    await createRandomLoraAdapter({ baseModelPath, path: second, rank: 3, seed: 2, targets: ["ffn_up"] });
    await writePeftAdapter({ adapterPath: first, baseModelPath, out });
    await writePeftAdapter({ adapterPath: second, baseModelPath, out });
    expect(JSON.parse(await readFile(join(out, "adapter_config.json"), "utf8"))).toMatchObject({ r: 3, target_modules: ["up_proj"] });
    const report = await readBack(out, second, baseModelPath, 1);
    expect(Object.values(report.pairs).every((pair) => pair.a && pair.b)).toBe(true);
    expect(report.names).toHaveLength(8);
    expect((await readdir(directory)).filter((name) => name.startsWith("again.peft."))).toEqual([]);
  });
});

describe("writePeftAdapter refusals", () => {
  it("refuses an untied output target, naming it, and writes nothing", async () => {
    const baseModelPath = (await createRandomModel({ path: join(directory, "untied.gguf"), preset: "small", architecture: "llama", seed: 3, untiedOutput: true })).path;
    const adapterPath = join(directory, "with-output.gguf");
    await createRandomLoraAdapter({ baseModelPath, path: adapterPath, rank: 2, seed: 4, targets: ["attn_q", "output"] });
    const out = join(directory, "with-output.peft");
    const error = await writePeftAdapter({ adapterPath, baseModelPath, out }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PeftConversionError);
    expect((error as PeftConversionError).field).toBe("output.weight.lora_a");
    expect((error as Error).message).toMatch(/adapts the untied output projection \(lm_head\).*train without this target/);
    expect(existsSync(out)).toBe(false);
    expect((await readdir(directory)).filter((name) => name.startsWith("with-output.peft"))).toEqual([]);
  });

  it("refuses pairs of different ranks (PEFT's r is one number)", async () => {
    const baseModelPath = bundledArithmeticBase();
    const uniform = join(directory, "uniform.gguf");
    await createRandomLoraAdapter({ baseModelPath, path: uniform, rank: 4, seed: 6, targets: ["attn_v"] });
    // blk.1's pair cut to rank 2: lora_a dims [128, 2], lora_b dims [2, 64].
    const mixed = await rewriteGguf(uniform, join(directory, "mixed.gguf"), (_metadata, tensors) =>
      tensors.map((tensor) =>
        tensor.name === "blk.1.attn_v.weight.lora_a"
          ? { ...tensor, dims: [128, 2], bytes: tensor.bytes.slice(0, 128 * 2 * 4) }
          : tensor.name === "blk.1.attn_v.weight.lora_b"
            ? { ...tensor, dims: [2, 64], bytes: tensor.bytes.slice(0, 2 * 64 * 4) }
            : tensor,
      ),
    );
    const error = await writePeftAdapter({ adapterPath: mixed, baseModelPath, out: join(directory, "mixed.peft") }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PeftConversionError);
    expect((error as Error).message).toMatch(/blk\.1\.attn_v\.weight\.lora_b: has rank 2 where blk\.0\.attn_v\.weight has 4/);
  });
});
