import * as tf from "@tensorflow/tfjs";
import { InvalidModelFileError } from "../../../inference/errors/index.js";
import type { GgufReader } from "../../../gguf/gguf-reader.js";
import { LORA_A_SUFFIX, LORA_B_SUFFIX } from "../../../inference/model-files/lora-adapter-format.js";
import type { LoraFactorValues } from "../lora/read-lora-factors.js";
import type { PolicyConfiguration } from "./policy-configuration.js";
import type { BlockWeights, LinearWeights, PolicyWeights } from "./policy-weights.js";

export interface LoadPolicyWeightsOptions {
  reader: GgufReader;
  configuration: PolicyConfiguration;
  /** A LoRA adapter's pairs (`readLoraFactors`), kept as separate factors: then only they are trainable and the base is frozen. */
  adapter?: ReadonlyMap<string, LoraFactorValues>;
  /** Prepended to every variable's name; tfjs variable names are global, so each policy needs its own. */
  variablePrefix: string;
}

/**
 * Reads every weight of the model (dequantised to f32 by our GGUF reader) into
 * tfjs variables. Linear weights are transposed to `[in, out]` so the forward
 * pass multiplies without transpose flags; biases (`<name>.bias`) are loaded
 * wherever the file has them, as llama.cpp does. On failure nothing is left
 * allocated.
 */
export async function loadPolicyWeights(options: LoadPolicyWeightsOptions): Promise<PolicyWeights> {
  const loader = new VariableLoader(options);
  try {
    return await readWeights(loader, options.configuration);
  } catch (error) {
    for (const variable of loader.variables.values()) variable.dispose();
    throw error;
  }
}

async function readWeights(loader: VariableLoader, configuration: PolicyConfiguration): Promise<PolicyWeights> {
  const { embeddingLength: embedding, vocabularySize, feedForwardLength, headCount, headCountKv, keyLength, valueLength } = configuration;
  const tokenEmbedding = await loader.matrix("token_embd.weight", embedding, vocabularySize);
  const blocks: BlockWeights[] = [];
  for (let index = 0; index < configuration.blockCount; index++) {
    const prefix = `blk.${index}`;
    blocks.push({
      attentionNorm: await loader.vector(`${prefix}.attn_norm.weight`, embedding),
      query: await loader.linear(`${prefix}.attn_q.weight`, embedding, headCount * keyLength),
      key: await loader.linear(`${prefix}.attn_k.weight`, embedding, headCountKv * keyLength),
      value: await loader.linear(`${prefix}.attn_v.weight`, embedding, headCountKv * valueLength),
      attentionOutput: await loader.linear(`${prefix}.attn_output.weight`, headCount * valueLength, embedding),
      feedForwardNorm: await loader.vector(`${prefix}.ffn_norm.weight`, embedding),
      gate: await loader.linear(`${prefix}.ffn_gate.weight`, embedding, feedForwardLength),
      up: await loader.linear(`${prefix}.ffn_up.weight`, embedding, feedForwardLength),
      down: await loader.linear(`${prefix}.ffn_down.weight`, feedForwardLength, embedding),
    });
  }
  const outputNorm = await loader.vector("output_norm.weight", embedding);
  const output = loader.has("output.weight") ? await loader.linear("output.weight", embedding, vocabularySize) : "tied";
  const ropeFrequencyFactors = loader.has("rope_freqs.weight") ? await loader.constant("rope_freqs.weight", keyLength / 2) : undefined;
  loader.checkEveryPairUsed();
  return { tokenEmbedding, blocks, outputNorm, output, ropeFrequencyFactors, variables: loader.variables };
}

/** Turns a model's tensors (and an adapter's pairs) into named, shape-checked variables. */
class VariableLoader {
  readonly variables = new Map<string, tf.Variable>();
  private readonly reader: GgufReader;
  private readonly adapter: ReadonlyMap<string, LoraFactorValues> | undefined;
  private readonly variablePrefix: string;
  private readonly unusedPairs: Set<string>;

  constructor(options: LoadPolicyWeightsOptions) {
    this.reader = options.reader;
    this.adapter = options.adapter;
    this.variablePrefix = options.variablePrefix;
    this.unusedPairs = new Set(options.adapter?.keys());
  }

  has(name: string): boolean {
    return this.reader.findTensor(name) !== undefined;
  }

  /** A vector of `length` values, e.g. a norm's weight. */
  async vector(name: string, length: number): Promise<tf.Variable> {
    this.checkDims(name, [length]);
    return this.add(name, await this.reader.readTensor(name), [length], this.adapter === undefined);
  }

  /** A matrix with GGUF dims `[columns, rows]`, held as stored: row-major `[rows, columns]`. */
  async matrix(name: string, columns: number, rows: number): Promise<tf.Variable> {
    this.checkDims(name, [columns, rows]);
    return this.add(name, await this.reader.readTensor(name), [rows, columns], this.adapter === undefined);
  }

  /** A linear layer's weight (transposed to `[in, out]`), its bias if the file has one, and its LoRA pair if the adapter has one. */
  async linear(name: string, inputs: number, outputs: number): Promise<LinearWeights> {
    this.checkDims(name, [inputs, outputs]);
    const weight = this.add(name, transpose(await this.reader.readTensor(name), outputs, inputs), [inputs, outputs], this.adapter === undefined);
    const biasName = name.replace(/\.weight$/, ".bias");
    const bias = this.has(biasName) ? await this.vector(biasName, outputs) : undefined;
    const pair = this.adapter?.get(name);
    if (pair === undefined) return { weight, bias, lora: undefined };
    this.unusedPairs.delete(name);
    const a = this.add(`${name}${LORA_A_SUFFIX}`, transpose(pair.a, pair.rank, inputs), [inputs, pair.rank], true);
    const b = this.add(`${name}${LORA_B_SUFFIX}`, transpose(pair.b, outputs, pair.rank), [pair.rank, outputs], true);
    return { weight, bias, lora: { a, b, scale: pair.factor } };
  }

  /** A tensor that is not trained, as plain values. */
  async constant(name: string, length: number): Promise<Float32Array> {
    this.checkDims(name, [length]);
    return this.reader.readTensor(name);
  }

  /** `validateLoraAdapter` admits only matrices the model has; this catches one the forward pass would not use. */
  checkEveryPairUsed(): void {
    if (this.unusedPairs.size > 0) this.fail([...this.unusedPairs].join(", "), "adapted by the LoRA adapter, but not a matrix the tfjs policy multiplies by");
  }

  private add(name: string, values: Float32Array, shape: number[], trainable: boolean): tf.Variable {
    const initial = tf.tensor(values, shape, "float32");
    const variable = tf.variable(initial, trainable, `${this.variablePrefix}${name}`);
    initial.dispose();
    this.variables.set(name, variable);
    return variable;
  }

  private checkDims(name: string, expected: readonly number[]): void {
    const dims = this.reader.tensor(name).dims;
    const same = dims.length === expected.length && dims.every((size, index) => size === expected[index]);
    if (!same) this.fail(name, `has dims [${dims.join(", ")}], expected [${expected.join(", ")}] (innermost first)`);
  }

  private fail(field: string, problem: string): never {
    throw new InvalidModelFileError(this.reader.path, field, problem);
  }
}

/** The transpose of a row-major `[rows, columns]` matrix. */
function transpose(values: Float32Array, rows: number, columns: number): Float32Array {
  const transposed = new Float32Array(values.length);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) transposed[column * rows + row] = values[row * columns + column] as number;
  }
  return transposed;
}
