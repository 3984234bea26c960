import { InvalidAdapterFileError } from "../errors/index.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import type { GgufTensorInfo } from "../../gguf/gguf-tensor-info.js";
import type { GgufMetadata, GgufValue } from "../../gguf/gguf-value.js";
import { TOKEN_EMBEDDING_NAME } from "./adaptable-weights.js";
import { LORA_ADAPTER_KEYS, LORA_A_SUFFIX, LORA_B_SUFFIX } from "./lora-adapter-format.js";

/** One adapted base matrix: its A·B pair's shapes, as row-major `[out, rank] · [rank, in]`. */
export interface LoraAdapterTensor {
  /** The base matrix it adapts, e.g. `blk.0.attn_q.weight`. */
  baseName: string;
  inputLength: number;
  outputLength: number;
  /** lora_b's `dims[0]`, which llama.cpp divides alpha by. */
  rank: number;
}

export interface LoraAdapterHeader {
  path: string;
  /** `general.architecture`. */
  architecture: string;
  /** `adapter.lora.alpha`, as the float32 the file holds. */
  alpha: number;
  /** `general.name`, when the file has one. */
  name: string | undefined;
  /** In file order of their lora_a tensors. */
  tensors: LoraAdapterTensor[];
}

/**
 * Reads a LoRA adapter's header and checks it the way llama.cpp's
 * `llama_adapter_lora_init` does, plus the cases where llama.cpp would abort
 * (a key of the wrong type) or silently differ from `mergeLoraAdapter`
 * (no alpha, ignored norm tensors, activated-LoRA tokens). Throws GgufError
 * subclasses for unreadable files and InvalidAdapterFileError naming the file
 * and the key or tensor at fault. Use `validateLoraAdapter` to check it
 * against its base model too.
 */
export async function readLoraAdapter(path: string): Promise<LoraAdapterHeader> {
  const reader = await GgufReader.open(path);
  try {
    const fail: (field: string, problem: string) => never = (field, problem) => {
      throw new InvalidAdapterFileError(path, field, problem);
    };
    const generalType = requiredString(reader.metadata, LORA_ADAPTER_KEYS.generalType, fail, 'the string "adapter"');
    if (generalType !== "adapter") fail(LORA_ADAPTER_KEYS.generalType, `is "${generalType}", not "adapter": this is not an adapter file (a model?)`);
    const architecture = requiredString(reader.metadata, LORA_ADAPTER_KEYS.architecture, fail, "the base model's architecture");
    const adapterType = requiredString(reader.metadata, LORA_ADAPTER_KEYS.adapterType, fail, 'the string "lora"');
    if (adapterType !== "lora") fail(LORA_ADAPTER_KEYS.adapterType, `is "${adapterType}"; selfplay supports "lora" adapters only`);
    const alpha = readAlpha(reader.metadata.get(LORA_ADAPTER_KEYS.alpha), fail);
    if (reader.metadata.has(LORA_ADAPTER_KEYS.invocationTokens)) {
      fail(LORA_ADAPTER_KEYS.invocationTokens, "present: activated LoRA (applied only after these tokens) is not supported; remove the key");
    }
    const nameValue = reader.metadata.get(LORA_ADAPTER_KEYS.name);
    return { path, architecture, alpha, name: nameValue?.type === "string" ? nameValue.value : undefined, tensors: pairTensors(reader.tensors, fail) };
  } finally {
    await reader.close();
  }
}

type Fail = (field: string, problem: string) => never;

function requiredString(metadata: GgufMetadata, key: string, fail: Fail, expected: string): string {
  const value = metadata.get(key);
  if (value === undefined) return fail(key, `missing; an adapter file needs it (${expected})`);
  // llama.cpp reads these with gguf_get_val_str, which aborts the process on another type.
  if (value.type !== "string") return fail(key, `is a ${describeType(value)}, expected a string (${expected})`);
  return value.value;
}

function readAlpha(value: GgufValue | undefined, fail: Fail): number {
  const key = LORA_ADAPTER_KEYS.alpha;
  // llama.cpp would load an adapter without alpha, but then skip the alpha / rank factor.
  if (value === undefined) return fail(key, "missing; a LoRA adapter needs its alpha (a positive float32)");
  // gguf_get_val_f32 aborts the process on another type.
  if (value.type !== "float32") return fail(key, `is a ${describeType(value)}, expected a float32 (llama.cpp aborts on any other type)`);
  if (!(value.value > 0) || !Number.isFinite(value.value)) return fail(key, `is ${value.value}, expected a positive finite number`);
  return value.value;
}

/** Pairs `<name>.lora_a` with `<name>.lora_b`, checking each pair's shapes agree. */
function pairTensors(tensors: readonly GgufTensorInfo[], fail: Fail): LoraAdapterTensor[] {
  const pairs = new Map<string, { a?: GgufTensorInfo; b?: GgufTensorInfo }>();
  for (const tensor of tensors) {
    const part = tensor.name.endsWith(LORA_A_SUFFIX) ? "a" : tensor.name.endsWith(LORA_B_SUFFIX) ? "b" : undefined;
    if (part === undefined) {
      if (tensor.name.endsWith("_norm.weight")) fail(tensor.name, "llama.cpp ignores norm tensors in adapters, so this one would have no effect; remove it");
      fail(tensor.name, `has an unexpected suffix; adapter tensors are named <base tensor>${LORA_A_SUFFIX} and <base tensor>${LORA_B_SUFFIX}`);
    }
    const baseName = tensor.name.slice(0, -LORA_A_SUFFIX.length);
    const pair = pairs.get(baseName) ?? {};
    pair[part] = tensor;
    pairs.set(baseName, pair);
  }
  if (pairs.size === 0) fail("tensors", "none; an adapter needs at least one lora_a/lora_b pair");

  const adapted: LoraAdapterTensor[] = [];
  for (const [baseName, { a, b }] of pairs) {
    if (a === undefined) return fail(`${baseName}${LORA_B_SUFFIX}`, `has no ${baseName}${LORA_A_SUFFIX} to pair with; llama.cpp needs both halves`);
    if (b === undefined) return fail(`${baseName}${LORA_A_SUFFIX}`, `has no ${baseName}${LORA_B_SUFFIX} to pair with; llama.cpp needs both halves`);
    if (baseName === TOKEN_EMBEDDING_NAME) {
      fail(a.name, "selfplay does not support adapting the token embedding (llama.cpp reads it transposed, and a tied output projection shares its name)");
    }
    const [inputLength, aRank] = matrixDims(a, fail);
    const [bRank, outputLength] = matrixDims(b, fail);
    if (aRank !== bRank) {
      fail(a.name, `has rank ${aRank} (dims [${a.dims.join(", ")}]) but ${b.name} has rank ${bRank} (dims [${b.dims.join(", ")}]); lora_a must be dims [in, rank] and lora_b dims [rank, out]`);
    }
    adapted.push({ baseName, inputLength, outputLength, rank: bRank });
  }
  return adapted;
}

/** A tensor's two dims (ggml treats missing trailing dims as 1); more than two is refused. */
function matrixDims(tensor: GgufTensorInfo, fail: Fail): [number, number] {
  if (tensor.dims.slice(2).some((size) => size !== 1)) fail(tensor.name, `has dims [${tensor.dims.join(", ")}]; LoRA tensors are matrices`);
  return [tensor.dims[0] ?? 1, tensor.dims[1] ?? 1];
}

function describeType(value: GgufValue): string {
  return value.type === "array" ? `array of ${value.itemType}` : value.type;
}
