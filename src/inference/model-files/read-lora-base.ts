import { GgufReader } from "../../gguf/gguf-reader.js";
import { adaptableWeights, type LoraBase } from "./adaptable-weights.js";
import { validateModelFile } from "./validate-model-file.js";

/**
 * Validates the base model file (`validateModelFile`'s errors) and lists the
 * matrices it has that an adapter can target.
 */
export async function readLoraBase(modelPath: string): Promise<LoraBase> {
  const { hyperparameters } = await validateModelFile(modelPath);
  const reader = await GgufReader.open(modelPath);
  try {
    const weights = adaptableWeights(hyperparameters);
    for (const name of weights.keys()) if (reader.findTensor(name) === undefined) weights.delete(name);
    return { architecture: hyperparameters.architecture, weights };
  } finally {
    await reader.close();
  }
}
