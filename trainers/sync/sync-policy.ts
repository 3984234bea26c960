import { join } from "node:path";
import type { InferenceClient } from "../../src/core/inference-client.js";
import type { Policy } from "../policy/policy.js";
import { exportPolicyModel } from "./export-policy-model.js";

export interface SyncPolicyOptions {
  policy: Policy;
  client: InferenceClient;
  /** Folder for the exported files; each version gets its own (`policy-v<version>.gguf`). */
  directory: string;
  /** The new policy version (> the client's current one); Steps sampled afterwards carry it. */
  version: number;
}

/** Where a synced policy went and how long each half took (logged every step). */
export interface PolicySync {
  path: string;
  version: number;
  exportSeconds: number;
  swapSeconds: number;
}

/**
 * Puts the trainer's weights into the inference engine: exports them to a new
 * file per version (engines cache by path, and a run keeps its history) and
 * swaps that file in. Calls already running finish on the old weights.
 */
export async function syncPolicy(options: SyncPolicyOptions): Promise<PolicySync> {
  const { policy, client, directory, version } = options;
  const started = performance.now();
  const path = await exportPolicyModel(policy, join(directory, `policy-v${version}.gguf`));
  const exported = performance.now();
  await client.swapWeights({ policyVersion: version, modelPath: path });
  return { path, version, exportSeconds: (exported - started) / 1000, swapSeconds: (performance.now() - exported) / 1000 };
}
