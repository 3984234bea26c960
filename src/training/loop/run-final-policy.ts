import { existsSync } from "node:fs";
import { join } from "node:path";
import { InvalidInputError } from "../../core/errors/index.js";
import { findTrainingCheckpoint } from "./training-checkpoint-files.js";

/** A policy to load: a model file, and a LoRA adapter over it when the run trained one. */
export interface RunFinalPolicy {
  modelPath: string;
  loraPath?: string;
}

/**
 * The policy a training run in `directory` ended with: its `final.gguf`, or
 * its `final.lora.gguf` over the base model its checkpoint records (a run of
 * a model not made by the project trains a LoRA). A run that has written
 * neither (it has not finished) is an error that says to name a model.
 */
export async function runFinalPolicy(directory: string): Promise<RunFinalPolicy> {
  const model = join(directory, "final.gguf");
  if (existsSync(model)) return { modelPath: model };
  const adapter = join(directory, "final.lora.gguf");
  const { checkpoint } = existsSync(adapter) ? await findTrainingCheckpoint(directory) : { checkpoint: undefined };
  if (checkpoint) return { modelPath: checkpoint.modelPath, loraPath: adapter };
  throw new InvalidInputError(
    "--model",
    `a model to sample continuations on; by default the run's final.gguf in ${directory}, or its final.lora.gguf over the base model its checkpoint records, which it does not have (the run has not finished): pass --model FILE`,
  );
}
