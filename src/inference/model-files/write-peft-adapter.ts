import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { parseInput } from "../../core/parse-input.js";
import { writeFolderAtomic } from "../../core/write-folder-atomic.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import { PeftConversionError } from "../errors/index.js";
import { LORA_A_SUFFIX, LORA_B_SUFFIX } from "./lora-adapter-format.js";
import { PEFT_ADAPTER_CONFIG_FILE, PEFT_ADAPTER_WEIGHTS_FILE, PEFT_MODULES, peftTargetModule, peftTensorNames, type PeftModuleKind } from "./peft-adapter-format.js";
import type { LoraAdapterTensor } from "./read-lora-adapter.js";
import { undoRopeRowPermutation } from "./undo-rope-row-permutation.js";
import { validateLoraAdapter } from "./validate-lora-adapter.js";
import { validateModelFile } from "./validate-model-file.js";
import { writeSafetensors, type SafetensorsTensor } from "./write-safetensors.js";

export const WritePeftAdapterOptionsSchema = z.strictObject({
  /** The GGUF LoRA adapter (llama.cpp's layout, as selfplay's trainers write it). */
  adapterPath: z.string().min(1),
  /**
   * The base model GGUF the adapter was made for: the adapter is validated
   * against it (`validateLoraAdapter`), and a llama's head counts, which undo
   * the rope row order of q and k, come from it.
   */
  baseModelPath: z.string().min(1),
  /** The folder to write; built in a temporary sibling and renamed into place, replacing a folder already there. */
  out: z.string().min(1),
  /**
   * `base_model_name_or_path` in adapter_config.json: the Hugging Face id or
   * folder of the base model the server runs, e.g. "Qwen/Qwen2.5-0.5B-Instruct".
   * Default: null (vLLM does not read it; PEFT's `from_pretrained` then needs the base given).
   */
  baseModelNameOrPath: z.string().min(1).optional(),
});
export type WritePeftAdapterOptions = z.input<typeof WritePeftAdapterOptionsSchema>;

export interface WrittenPeftAdapter {
  /** The folder, holding adapter_config.json and adapter_model.safetensors. */
  path: string;
  /** `r`: every pair's rank. */
  rank: number;
  /** `lora_alpha`: the GGUF's float32 `adapter.lora.alpha`. */
  alpha: number;
  /** `target_modules`, in the order q, k, v, o, gate, up, down. */
  targetModules: string[];
  /** The safetensors tensors in file order: each matrix's lora_A, then its lora_B. */
  tensorNames: string[];
}

/**
 * Writes a GGUF LoRA adapter in Hugging Face PEFT form, the folder vLLM's
 * `/v1/load_lora_adapter` and PEFT's `PeftModel.from_pretrained` load:
 * `adapter_model.safetensors` (float32 `F32` tensors named
 * `base_model.model.model.layers.{N}.self_attn.q_proj.lora_A.weight`, …; see
 * peft-adapter-format.ts for the mapping) and `adapter_config.json` (LORA,
 * CAUSAL_LM, r, lora_alpha, target_modules, bias "none"). PEFT's delta
 * `(lora_alpha / r) · lora_B @ lora_A` is llama.cpp's `(alpha / rank) · B · A`
 * in Hugging Face row order. Refuses with PeftConversionError an adapter PEFT's
 * form cannot express (a matrix other than the seven projections, such as an
 * untied `output`; pairs of different ranks), before anything is written.
 */
export async function writePeftAdapter(options: WritePeftAdapterOptions): Promise<WrittenPeftAdapter> {
  const { adapterPath, baseModelPath, out, baseModelNameOrPath } = parseInput(WritePeftAdapterOptionsSchema, options);
  const adapter = await validateLoraAdapter(adapterPath, baseModelPath);
  const { hyperparameters } = await validateModelFile(baseModelPath);
  const fail = (field: string, problem: string): never => {
    throw new PeftConversionError(adapterPath, field, problem);
  };
  const rank = (adapter.tensors[0] as LoraAdapterTensor).rank;
  const pairs = adapter.tensors.map((tensor) => {
    const names = peftTensorNames(tensor.baseName);
    if (names === undefined) {
      const what = tensor.baseName === "output.weight" ? "the untied output projection (lm_head)" : "a matrix";
      return fail(
        `${tensor.baseName}${LORA_A_SUFFIX}`,
        `adapts ${what} the PEFT form cannot carry: it covers the block matrices ${Object.keys(PEFT_MODULES).join(", ")} (q/k/v/o_proj, gate/up/down_proj); train without this target`,
      );
    }
    if (tensor.rank !== rank) {
      fail(`${tensor.baseName}${LORA_B_SUFFIX}`, `has rank ${tensor.rank} where ${(adapter.tensors[0] as LoraAdapterTensor).baseName} has ${rank}; PEFT's r is one rank for every pair`);
    }
    return { tensor, names };
  });
  const adaptedKinds = new Set(pairs.map(({ names }) => names.kind));
  const targetModules = (Object.keys(PEFT_MODULES) as PeftModuleKind[]).filter((kind) => adaptedKinds.has(kind)).map(peftTargetModule);
  // llama.cpp's converter permutes a llama's q and k rows into its interleaved rope order; qwen2's keep theirs.
  const ropeHeads = (kind: PeftModuleKind): number | undefined =>
    hyperparameters.architecture !== "llama" ? undefined : kind === "attn_q" ? hyperparameters.headCount : kind === "attn_k" ? hyperparameters.headCountKv : undefined;

  const reader = await GgufReader.open(adapterPath);
  try {
    const tensors = pairs.flatMap(({ tensor, names }): SafetensorsTensor[] => {
      const heads = ropeHeads(names.kind);
      return [
        // GGUF lora_a, dims [in, r], is row-major (r, in): PEFT's lora_A.weight as it is.
        { name: names.a, shape: [rank, tensor.inputLength], values: () => reader.readTensor(`${tensor.baseName}${LORA_A_SUFFIX}`) },
        {
          // GGUF lora_b, dims [r, out], is row-major (out, r): PEFT's lora_B.weight, rows back in Hugging Face rope order for llama's q and k.
          name: names.b,
          shape: [tensor.outputLength, rank],
          values: async () => {
            const b = await reader.readTensor(`${tensor.baseName}${LORA_B_SUFFIX}`);
            return heads === undefined ? b : undoRopeRowPermutation(b, tensor.outputLength, rank, heads);
          },
        },
      ];
    });
    const configuration = {
      peft_type: "LORA",
      task_type: "CAUSAL_LM",
      base_model_name_or_path: baseModelNameOrPath ?? null,
      r: rank,
      lora_alpha: adapter.alpha,
      target_modules: targetModules,
      bias: "none",
      lora_dropout: 0,
      fan_in_fan_out: false,
      use_rslora: false,
      use_dora: false,
      modules_to_save: null,
      init_lora_weights: true,
      inference_mode: true,
    };
    await writeFolderAtomic(out, async (folder) => {
      await writeSafetensors(join(folder, PEFT_ADAPTER_WEIGHTS_FILE), { metadata: { format: "pt" }, tensors });
      await writeFile(join(folder, PEFT_ADAPTER_CONFIG_FILE), `${JSON.stringify(configuration, null, 2)}\n`);
    });
    return { path: out, rank, alpha: adapter.alpha, targetModules, tensorNames: tensors.map(({ name }) => name) };
  } finally {
    await reader.close();
  }
}
