import { InvalidInputError } from "../../core/errors/index.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import { writeGguf, type GgufTensorInput } from "../../gguf/write-gguf.js";
import { MOMENT_SUFFIXES, OPTIMIZER_STEPS_KEY } from "../tfjs/optimizer/write-optimizer-state.js";
import { transpose } from "../tfjs/sync/export-policy-model.js";
import type { GgmlPolicy } from "./ggml-policy.js";

/**
 * The checkpoint's optimizer.gguf holds each moment in the layout the tfjs
 * trainer keeps its variable in, so any backend restores any backend's file:
 * linear weights transposed ([in, out] row-major), the embedding table and
 * vectors as GGUF stores them. ggml keeps every tensor as GGUF stores it.
 */
function isTransposedInCheckpoint(name: string, shape: readonly number[]): boolean {
  return shape.length === 2 && name !== "token_embd.weight";
}

/** Writes AdamW's step count and every trainable tensor's moments (`writeOptimizerState`'s format). */
export async function writeGgmlOptimizerState(path: string, policy: GgmlPolicy, steps: number): Promise<void> {
  const tensors: GgufTensorInput[] = [];
  for (const { name, shape, trainable } of policy.tensors) {
    if (!trainable) continue;
    const transposed = isTransposedInCheckpoint(name, shape);
    // GGUF dims innermost first; a transposed [in, out] row-major moment has dims [out, in].
    const dims = transposed ? [shape[1] as number, shape[0] as number] : shape;
    const layout = (values: Float32Array) => (transposed ? transpose(values, shape[1] as number, shape[0] as number) : values);
    tensors.push({ name: `${name}${MOMENT_SUFFIXES.first}`, dims, type: "f32", values: () => layout(policy.native.readTensor(name, "adam_m")) });
    tensors.push({ name: `${name}${MOMENT_SUFFIXES.second}`, dims, type: "f32", values: () => layout(policy.native.readTensor(name, "adam_v")) });
  }
  await writeGguf(path, { metadata: { [OPTIMIZER_STEPS_KEY]: { type: "uint32", value: steps } }, tensors });
}

/** Loads an optimizer.gguf into the policy's moment tensors; returns the step count. Moments absent for a tensor stay zero. */
export async function readGgmlOptimizerState(path: string, policy: GgmlPolicy): Promise<number> {
  const reader = await GgufReader.open(path);
  try {
    const steps = reader.metadata.get(OPTIMIZER_STEPS_KEY);
    if (steps?.type !== "uint32") throw new InvalidInputError(`${path}: ${OPTIMIZER_STEPS_KEY}`, "the optimizer's step count (uint32)", steps?.type);
    const expected = new Set<string>();
    for (const { name, shape, trainable } of policy.tensors) {
      if (!trainable) continue;
      const size = shape.reduce((product, dimension) => product * dimension, 1);
      const transposed = isTransposedInCheckpoint(name, shape);
      for (const [suffix, kind] of [[MOMENT_SUFFIXES.first, "adam_m"], [MOMENT_SUFFIXES.second, "adam_v"]] as const) {
        const momentName = `${name}${suffix}`;
        expected.add(momentName);
        const tensor = reader.findTensor(momentName);
        if (tensor === undefined) {
          policy.native.writeTensor(name, kind, new Float32Array(size));
          continue;
        }
        if (tensor.elementCount !== size) {
          throw new InvalidInputError(`${path}: ${momentName}`, `${size} values, as the tensor "${name}" has (was the checkpoint made for another model?)`, tensor.elementCount);
        }
        const values = await reader.readTensor(momentName);
        policy.native.writeTensor(name, kind, transposed ? transpose(values, shape[0] as number, shape[1] as number) : values);
      }
    }
    const stranger = reader.tensors.find((tensor) => !expected.has(tensor.name));
    if (stranger) throw new InvalidInputError(`${path}: ${stranger.name}`, "moments of the model's own tensors only (was the checkpoint made for another model?)", stranger.name);
    return steps.value as number;
  } finally {
    await reader.close();
  }
}
