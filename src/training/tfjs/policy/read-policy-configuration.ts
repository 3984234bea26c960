import type { GgufReader } from "../../../gguf/gguf-reader.js";
import { MetadataFields } from "../../../inference/model-files/metadata-fields.js";
import { MODEL_ARCHITECTURES, type ModelArchitecture } from "../../../inference/model-files/model-architecture.js";
import { readModelHyperparameters } from "../../../inference/model-files/read-model-hyperparameters.js";
import { validateTokenizerMetadata } from "../../../inference/model-files/validate-tokenizer-metadata.js";
import type { PolicyConfiguration } from "./policy-configuration.js";

/** llama.cpp's default `rope.freq_base` when a file has none. */
const DEFAULT_ROPE_FREQUENCY_BASE = 10_000;

/**
 * Reads the forward pass's shape from a model file's metadata, with the same
 * checks (and InvalidModelFileError messages) as the engine's validator, and
 * refuses what this forward pass does not compute: mixture-of-experts layers
 * and rope scaling other than rope_freqs.
 */
export function readPolicyConfiguration(reader: GgufReader): PolicyConfiguration {
  const fields = new MetadataFields(reader.path, reader.metadata);
  const architectureName = fields.string("general.architecture");
  if (!(MODEL_ARCHITECTURES as readonly string[]).includes(architectureName)) {
    fields.fail("general.architecture", `is "${architectureName}"; the tfjs policy computes: ${MODEL_ARCHITECTURES.join(", ")}`);
  }
  const architecture = architectureName as ModelArchitecture;
  const { vocabularySize } = validateTokenizerMetadata(fields);
  const hyperparameters = readModelHyperparameters(fields, architecture, vocabularySize);
  if (hyperparameters.expertCount > 0) {
    fields.fail(`${architecture}.expert_count`, `is ${hyperparameters.expertCount}; the tfjs policy computes dense feed-forward layers only`);
  }
  const scaling = fields.string(`${architecture}.rope.scaling.type`, { optional: true });
  if (scaling !== undefined && scaling !== "none") {
    fields.fail(`${architecture}.rope.scaling.type`, `is "${scaling}"; the tfjs policy supports unscaled rope (with or without a rope_freqs tensor)`);
  }
  const { expertCount: _dense, ...shape } = hyperparameters;
  return {
    ...shape,
    ropeType: architecture === "qwen2" ? "neox" : "normal",
    ropeFrequencyBase: fields.float32(`${architecture}.rope.freq_base`, "rope base frequency", { optional: true }) ?? DEFAULT_ROPE_FREQUENCY_BASE,
    rmsNormEpsilon: fields.float32(`${architecture}.attention.layer_norm_rms_epsilon`, "epsilon of the RMS norms"),
  };
}
