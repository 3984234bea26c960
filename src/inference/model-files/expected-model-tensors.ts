import type { ModelArchitecture } from "./model-architecture.js";

/** The hyperparameters that determine a model's tensor shapes. */
export interface ModelHyperparameters {
  architecture: ModelArchitecture;
  vocabularySize: number;
  contextLength: number;
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
  headCountKv: number;
  /** Per-head key width: `attention.key_length`, else embeddingLength / headCount. */
  keyLength: number;
  /** Per-head value width: `attention.value_length`, else embeddingLength / headCount. */
  valueLength: number;
  /** Mixture-of-experts experts per layer (`expert_count`); 0 for a dense model. */
  expertCount: number;
}

/** A tensor llama.cpp's loader looks for. */
export interface ExpectedTensor {
  /** Full GGUF name, e.g. `blk.0.attn_q.weight`. */
  name: string;
  /** Dimensions innermost first, as GGUF stores them (and as llama.cpp's `create_tensor` lists them). */
  dims: number[];
  /** How a fresh model initialises it: norms to 1, biases to 0, the rest randomly. */
  initialisation: "ones" | "zeros" | "random";
  /**
   * False for tensors llama.cpp loads without: `output.weight` (the output then
   * reuses `token_embd`) and qwen2's q/k/v biases. The model maker writes the
   * biases anyway; real Qwen2 models have them.
   */
  required: boolean;
}

/**
 * The tensors llama.cpp's `llama_model::load_tensors` creates for `llama` and
 * `qwen2`, with their shapes. One list serves both the model maker and the
 * validator, so what we write is exactly what we check.
 */
export function expectedModelTensors(hyperparameters: ModelHyperparameters): ExpectedTensor[] {
  const { embeddingLength: embedding, vocabularySize: vocabulary, feedForwardLength: feedForward, expertCount } = hyperparameters;
  const queryWidth = hyperparameters.headCount * hyperparameters.keyLength;
  const keyWidth = hyperparameters.headCountKv * hyperparameters.keyLength;
  const valueWidth = hyperparameters.headCountKv * hyperparameters.valueLength;
  const attentionOutputWidth = hyperparameters.headCount * hyperparameters.valueLength;
  const tensors: ExpectedTensor[] = [
    { name: "token_embd.weight", dims: [embedding, vocabulary], initialisation: "random", required: true },
    { name: "output_norm.weight", dims: [embedding], initialisation: "ones", required: true },
    { name: "output.weight", dims: [embedding, vocabulary], initialisation: "random", required: false },
  ];
  for (let block = 0; block < hyperparameters.blockCount; block++) {
    const prefix = `blk.${block}`;
    tensors.push(
      { name: `${prefix}.attn_norm.weight`, dims: [embedding], initialisation: "ones", required: true },
      { name: `${prefix}.attn_q.weight`, dims: [embedding, queryWidth], initialisation: "random", required: true },
      { name: `${prefix}.attn_k.weight`, dims: [embedding, keyWidth], initialisation: "random", required: true },
      { name: `${prefix}.attn_v.weight`, dims: [embedding, valueWidth], initialisation: "random", required: true },
      { name: `${prefix}.attn_output.weight`, dims: [attentionOutputWidth, embedding], initialisation: "random", required: true },
    );
    if (hyperparameters.architecture === "qwen2") {
      tensors.push(
        { name: `${prefix}.attn_q.bias`, dims: [queryWidth], initialisation: "zeros", required: false },
        { name: `${prefix}.attn_k.bias`, dims: [keyWidth], initialisation: "zeros", required: false },
        { name: `${prefix}.attn_v.bias`, dims: [valueWidth], initialisation: "zeros", required: false },
      );
    }
    tensors.push({ name: `${prefix}.ffn_norm.weight`, dims: [embedding], initialisation: "ones", required: true });
    if (expertCount > 0) {
      tensors.push(
        { name: `${prefix}.ffn_gate_inp.weight`, dims: [embedding, expertCount], initialisation: "random", required: true },
        { name: `${prefix}.ffn_gate_exps.weight`, dims: [embedding, feedForward, expertCount], initialisation: "random", required: true },
        { name: `${prefix}.ffn_down_exps.weight`, dims: [feedForward, embedding, expertCount], initialisation: "random", required: true },
        { name: `${prefix}.ffn_up_exps.weight`, dims: [embedding, feedForward, expertCount], initialisation: "random", required: true },
      );
    } else {
      tensors.push(
        { name: `${prefix}.ffn_gate.weight`, dims: [embedding, feedForward], initialisation: "random", required: true },
        { name: `${prefix}.ffn_down.weight`, dims: [feedForward, embedding], initialisation: "random", required: true },
        { name: `${prefix}.ffn_up.weight`, dims: [embedding, feedForward], initialisation: "random", required: true },
      );
    }
  }
  return tensors;
}
