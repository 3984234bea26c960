import type * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../../core/errors/index.js";
import { GgufReader } from "../../../gguf/gguf-reader.js";
import type { AdamWMomentsSnapshot, AdamWSnapshot } from "./adamw.js";
import { MOMENT_SUFFIXES, OPTIMIZER_STEPS_KEY } from "./write-optimizer-state.js";

/**
 * Reads a file `writeOptimizerState` wrote, for `AdamW.restore`: the moments
 * stored under each stable name of `variables` come back keyed by that
 * variable's tfjs name in this process. A moment of a variable not in
 * `variables`, or of another size, means the file belongs to another model.
 */
export async function readOptimizerState(path: string, variables: ReadonlyMap<string, tf.Variable>): Promise<AdamWSnapshot> {
  const reader = await GgufReader.open(path);
  try {
    const steps = reader.metadata.get(OPTIMIZER_STEPS_KEY);
    if (steps?.type !== "uint32") throw new InvalidInputError(`${path}: ${OPTIMIZER_STEPS_KEY}`, "the optimizer's step count (uint32)", steps?.type);
    const expected = new Set<string>();
    const moments = new Map<string, AdamWMomentsSnapshot>();
    for (const [name, variable] of variables) {
      const names = { first: `${name}${MOMENT_SUFFIXES.first}`, second: `${name}${MOMENT_SUFFIXES.second}` };
      expected.add(names.first).add(names.second);
      const first = reader.findTensor(names.first);
      const second = reader.findTensor(names.second);
      // A variable without moments has had no gradient yet; AdamW starts its moments at zero when it gets one.
      if (first === undefined && second === undefined) continue;
      for (const tensor of [first, second]) {
        if (tensor?.elementCount !== variable.size) {
          throw new InvalidInputError(`${path}: ${tensor?.name ?? names.first}`, `${variable.size} values, as the variable "${name}" has (was the checkpoint made for another model?)`, tensor?.elementCount);
        }
      }
      moments.set(variable.name, { shape: [...variable.shape], first: await reader.readTensor(names.first), second: await reader.readTensor(names.second) });
    }
    const stranger = reader.tensors.find((tensor) => !expected.has(tensor.name));
    if (stranger) throw new InvalidInputError(`${path}: ${stranger.name}`, "moments of the model's own variables only (was the checkpoint made for another model?)", stranger.name);
    return { steps: steps.value as number, moments };
  } finally {
    await reader.close();
  }
}
