import { GgufReader } from "../../gguf/gguf-reader.js";
import type { TrainerWeights } from "./trainer-checkpoint.js";

/**
 * `full` for a model the project made (`selfplay model create`, `selfplay
 * pretrain`: `general.name` starts with "selfplay-"; small, f32), `lora` for
 * any other: a real model is too big to train whole and its file stays untouched.
 */
export async function defaultTrainerWeights(modelPath: string): Promise<TrainerWeights> {
  const reader = await GgufReader.open(modelPath);
  try {
    const name = reader.metadata.get("general.name");
    return name?.type === "string" && String(name.value).startsWith("selfplay-") ? "full" : "lora";
  } finally {
    await reader.close();
  }
}
