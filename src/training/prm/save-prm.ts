import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { PRM_FILES, type PrmMetadata } from "../../frontier/prm/prm-metadata.js";
import { encodePrmOnnx } from "./encode-prm-onnx.js";
import type { PrmWeights } from "./prm-weights.js";

/** Writes `directory/prm.onnx` and `directory/prm.json` (creating the directory), each atomically; returns their paths. */
export async function savePrm(directory: string, weights: PrmWeights, metadata: PrmMetadata): Promise<{ model: string; metadata: string }> {
  await mkdir(directory, { recursive: true });
  const paths = { model: join(directory, PRM_FILES.model), metadata: join(directory, PRM_FILES.metadata) };
  // The model first: a reader that finds prm.json finds the model it describes.
  await writeFileAtomic(paths.model, encodePrmOnnx(weights, metadata.network));
  await writeFileAtomic(paths.metadata, `${JSON.stringify(metadata, null, 2)}\n`);
  return paths;
}
