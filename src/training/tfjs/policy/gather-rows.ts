import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../../core/errors/index.js";

/**
 * Rows `rows` of `table` (`[rowCount, width]` → `[rows.length, width]`), e.g.
 * token embeddings. The backward pass scatter-adds into a zero table with
 * ScatterNd (repeated rows add up), because `tf.gather`'s own gradient needs
 * an UnsortedSegmentSum kernel that tfjs-wasm lacks.
 */
export function gatherRows(table: tf.Tensor2D, rows: tf.Tensor1D): tf.Tensor2D {
  if (rows.dtype !== "int32") throw new InvalidInputError("rows.dtype", "int32", rows.dtype);
  const [rowCount, width] = table.shape;
  const gather = tf.customGrad((...inputs) => {
    const [source, save] = inputs as [tf.Tensor2D, tf.GradSaveFunc];
    // Saved, not captured: tfjs disposes the forward pass's tensors before the backward pass unless saved.
    save([rows]);
    return {
      value: tf.gather(source, rows),
      gradFunc: (dy, [savedRows]) => tf.scatterND(tf.expandDims(savedRows as tf.Tensor1D, 1), dy, [rowCount, width]),
    };
  });
  return gather(table) as tf.Tensor2D;
}
