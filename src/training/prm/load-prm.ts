import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PrmModelError } from "../../frontier/errors/index.js";
import { PRM_FILES, type PrmMetadata } from "../../frontier/prm/prm-metadata.js";
import { readPrmMetadata } from "../../frontier/prm/read-prm-metadata.js";
import { decodePrmOnnx } from "./decode-prm-onnx.js";
import type { PrmWeights } from "./prm-weights.js";

/** A saved PRM's metadata and weights, read back from its ONNX file (for fine-tuning with `--from`). */
export async function loadPrm(directory: string): Promise<{ metadata: PrmMetadata; weights: PrmWeights }> {
  const metadata = await readPrmMetadata(directory);
  const path = join(directory, PRM_FILES.model);
  const bytes = await readFile(path).catch((error: unknown) => {
    throw new PrmModelError(path, "cannot be read; pass the directory `selfplay prm train --out` wrote", { cause: error });
  });
  return { metadata, weights: decodePrmOnnx(bytes, metadata.network, path) };
}
