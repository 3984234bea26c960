/**
 * The Hugging Face PEFT layout of a LoRA adapter (what `peft` saves and vLLM's
 * `/v1/load_lora_adapter` loads): a folder with `adapter_config.json` and
 * `adapter_model.safetensors`. It is the reverse of llama.cpp's
 * convert_lora_to_gguf.py, which strips `base_model.model.`, maps the module
 * through convert_hf_to_gguf.py's tensor map (gguf-py's tensor_mapping.py)
 * and writes PEFT's `lora_A.weight`, torch shape `(r, in)`, as `.lora_a` and
 * `lora_B.weight`, `(out, r)`, as `.lora_b` without transposing either: GGUF
 * lists dims innermost first, so `(r, in)` is dims `[in, r]` over the same
 * bytes. The one change on the way is the llama rope permutation of q_proj's
 * and k_proj's rows (lora_B's, see undo-rope-row-permutation.ts); qwen2 uses
 * rotate-half rope in both, so its rows keep their order.
 */
export const PEFT_ADAPTER_CONFIG_FILE = "adapter_config.json";
export const PEFT_ADAPTER_WEIGHTS_FILE = "adapter_model.safetensors";

/** GGUF block matrix kind → the Hugging Face module under `model.layers.{N}.` (llama and qwen2 alike). */
export const PEFT_MODULES = {
  attn_q: "self_attn.q_proj",
  attn_k: "self_attn.k_proj",
  attn_v: "self_attn.v_proj",
  attn_output: "self_attn.o_proj",
  ffn_gate: "mlp.gate_proj",
  ffn_up: "mlp.up_proj",
  ffn_down: "mlp.down_proj",
} as const;

export type PeftModuleKind = keyof typeof PEFT_MODULES;

/** The PEFT names of one adapted matrix. */
export interface PeftTensorNames {
  kind: PeftModuleKind;
  block: number;
  /** `target_modules` entry: the module's last name, e.g. `q_proj`. */
  targetModule: string;
  /** `base_model.model.model.layers.{N}.self_attn.q_proj.lora_A.weight`. */
  a: string;
  b: string;
}

/** The `target_modules` entry for a kind: its module's last name, e.g. `q_proj`. */
export function peftTargetModule(kind: PeftModuleKind): string {
  return PEFT_MODULES[kind].split(".")[1] as string;
}

const BLOCK_MATRIX = /^blk\.(\d+)\.([a-z_]+)\.weight$/;

/** The PEFT names for a GGUF base matrix (`blk.3.attn_q.weight`), or undefined for a matrix PEFT's layout here does not cover. */
export function peftTensorNames(baseName: string): PeftTensorNames | undefined {
  const match = BLOCK_MATRIX.exec(baseName);
  if (match === null || !Object.hasOwn(PEFT_MODULES, match[2] as string)) return undefined;
  const kind = match[2] as PeftModuleKind;
  const block = Number(match[1]);
  const module = `base_model.model.model.layers.${block}.${PEFT_MODULES[kind]}`;
  return { kind, block, targetModule: peftTargetModule(kind), a: `${module}.lora_A.weight`, b: `${module}.lora_B.weight` };
}
