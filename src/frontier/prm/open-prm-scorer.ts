import { join } from "node:path";
import { OnnxPrmScorer } from "./onnx-prm-scorer.js";
import { openSavedFeaturiser } from "./open-featuriser.js";
import { PRM_FILES } from "./prm-metadata.js";
import { readPrmMetadata } from "./read-prm-metadata.js";

/** A served PRM and what to release when done with it (its session, and its embedding model if any). */
export interface OpenPrmScorer {
  scorer: OnnxPrmScorer;
  dispose: () => Promise<void>;
}

/**
 * Loads the PRM in `directory` (`selfplay prm train --out`) with the
 * featuriser it was trained with: an embedding PRM loads its model, or
 * `policy` when that moved.
 */
export async function openPrmScorer(directory: string, options: { policy?: string } = {}): Promise<OpenPrmScorer> {
  const metadata = await readPrmMetadata(directory);
  const open = await openSavedFeaturiser(metadata.featuriser, options.policy, join(directory, PRM_FILES.metadata));
  try {
    const scorer = await OnnxPrmScorer.load(directory, { featuriser: open.featuriser });
    return {
      scorer,
      dispose: async () => {
        await scorer.dispose();
        await open.dispose();
      },
    };
  } catch (error) {
    await open.dispose();
    throw error;
  }
}
