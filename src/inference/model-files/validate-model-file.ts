import { GgufReader } from "../../gguf/gguf-reader.js";
import { expectedModelTensors, type ModelHyperparameters } from "./expected-model-tensors.js";
import { MetadataFields } from "./metadata-fields.js";
import { MODEL_ARCHITECTURES, type ModelArchitecture } from "./model-architecture.js";
import { readModelHyperparameters } from "./read-model-hyperparameters.js";
import { validateTokenizerMetadata } from "./validate-tokenizer-metadata.js";

export interface ValidatedModelFile {
  path: string;
  /** `general.name`, when the file has one. */
  name: string | undefined;
  hyperparameters: ModelHyperparameters;
  /** `tokenizer.ggml.model`: "gpt2" or "llama". */
  tokenizerModel: string;
}

/**
 * Checks that a GGUF file is a model node-llama-cpp can load without aborting
 * the process: a supported architecture (llama, qwen2), every hyperparameter
 * llama.cpp requires present with the exact type and a sane value, every
 * required tensor present with the shape the hyperparameters imply, and a
 * usable tokenizer. Call it before `llama.loadModel`: llama.cpp kills the whole
 * process (uncatchably) on some of these, e.g. a missing `feed_forward_length`.
 *
 * Throws GgufError subclasses for files that are not readable GGUF, and
 * InvalidModelFileError naming the file and the key or tensor at fault.
 * Extra tensors are not checked: llama.cpp reports those as a normal load error.
 */
export async function validateModelFile(path: string): Promise<ValidatedModelFile> {
  const reader = await GgufReader.open(path);
  try {
    const fields = new MetadataFields(path, reader.metadata);
    const architecture = fields.string("general.architecture");
    if (!(MODEL_ARCHITECTURES as readonly string[]).includes(architecture)) {
      fields.fail("general.architecture", `is "${architecture}"; supported: ${MODEL_ARCHITECTURES.join(", ")}`);
    }
    const { tokenizerModel, vocabularySize } = validateTokenizerMetadata(fields);
    const hyperparameters = readModelHyperparameters(fields, architecture as ModelArchitecture, vocabularySize);
    for (const expected of expectedModelTensors(hyperparameters)) {
      const tensor = reader.findTensor(expected.name);
      if (tensor === undefined) {
        if (expected.required) fields.fail(expected.name, `tensor missing; a ${architecture} model with these hyperparameters needs it with dims [${expected.dims.join(", ")}]`);
        continue;
      }
      if (!sameDims(tensor.dims, expected.dims)) {
        fields.fail(
          expected.name,
          `tensor has dims [${tensor.dims.join(", ")}], expected [${expected.dims.join(", ")}] (innermost first) ` +
            `from ${describeHyperparameters(hyperparameters)}`,
        );
      }
    }
    const name = fields.string("general.name", { optional: true });
    return { path, name, hyperparameters, tokenizerModel };
  } finally {
    await reader.close();
  }
}

/** Equal as ggml compares them: missing trailing dimensions count as 1. */
function sameDims(actual: readonly number[], expected: readonly number[]): boolean {
  const length = Math.max(actual.length, expected.length);
  for (let index = 0; index < length; index++) {
    if ((actual[index] ?? 1) !== (expected[index] ?? 1)) return false;
  }
  return true;
}

function describeHyperparameters(hyperparameters: ModelHyperparameters): string {
  const { vocabularySize, embeddingLength, feedForwardLength, headCount, headCountKv, keyLength } = hyperparameters;
  return `vocabulary ${vocabularySize}, embedding_length ${embeddingLength}, feed_forward_length ${feedForwardLength}, head_count ${headCount}, head_count_kv ${headCountKv}, head width ${keyLength}`;
}
