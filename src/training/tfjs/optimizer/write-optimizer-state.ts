import type * as tf from "@tensorflow/tfjs";
import { dimsFromRowMajorShape } from "../../../gguf/row-major-shape.js";
import { writeGguf, type GgufTensorInput } from "../../../gguf/write-gguf.js";
import type { AdamWSnapshot } from "./adamw.js";

/** Metadata key of the optimizer's step count in an optimizer-state GGUF. */
export const OPTIMIZER_STEPS_KEY = "selfplay.adamw.steps";

/** Suffixes of the first and second moment tensors of a variable. */
export const MOMENT_SUFFIXES = { first: ".adam_m", second: ".adam_v" } as const;

/**
 * Writes AdamW's state as a GGUF of f32 tensors, `<name>.adam_m` and
 * `<name>.adam_v` per variable, with the step count in the metadata: a format
 * the project already reads, and writes whole or not at all. The optimizer
 * keys its moments by tfjs variable name, which differs from one process to
 * the next; `variables` gives each variable a name that does not (the
 * policy's GGUF tensor names, say), and the file uses those.
 */
export async function writeOptimizerState(path: string, snapshot: AdamWSnapshot, variables: ReadonlyMap<string, tf.Variable>): Promise<void> {
  const stableNames = new Map([...variables].map(([name, variable]) => [variable.name, name]));
  const tensors: GgufTensorInput[] = [];
  for (const [key, { shape, first, second }] of snapshot.moments) {
    const name = stableNames.get(key);
    if (name === undefined) throw new Error(`writeOptimizerState: the optimizer has moments for "${key}", which is not among the variables to save`);
    // GGUF has no zero-dimensional tensors: a scalar is stored as one value.
    const dims = dimsFromRowMajorShape(shape.length === 0 ? [1] : shape);
    tensors.push({ name: `${name}${MOMENT_SUFFIXES.first}`, dims, type: "f32", values: first });
    tensors.push({ name: `${name}${MOMENT_SUFFIXES.second}`, dims, type: "f32", values: second });
  }
  await writeGguf(path, { metadata: { [OPTIMIZER_STEPS_KEY]: { type: "uint32", value: snapshot.steps } }, tensors });
}
