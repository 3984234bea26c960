import { join } from "node:path";
import type { InferenceClient } from "../../../core/inference-client.js";
import { exportLoraAdapter } from "../lora/export-lora-adapter.js";
import type { Policy } from "../policy/policy.js";
import { exportPolicyModel } from "./export-policy-model.js";
import { weightSyncFormat, type WeightSyncFormat } from "./weight-sync-format.js";

export interface SyncPolicyOptions {
  policy: Policy;
  client: InferenceClient;
  /** Folder for the exported files; each version gets its own (`policy-v<version>.gguf`, or `policy-v<version>.lora.gguf` for an adapter). */
  directory: string;
  /** The new policy version (> the client's current one); Steps sampled afterwards carry it. */
  version: number;
  /**
   * Default: the adapter for a policy with a LoRA adapter, full weights for one
   * over an all-f32 base, and a QuantisedPolicyExportError otherwise (see
   * `weightSyncFormat`). `"full"` forces an f32 export of a quantised base.
   */
  format?: WeightSyncFormat;
}

/** Where a synced policy went, how, and how long each half took (logged every step). */
export interface PolicySync {
  path: string;
  format: WeightSyncFormat;
  version: number;
  exportSeconds: number;
  swapSeconds: number;
}

/**
 * Puts the trainer's weights into the inference engine without restarting
 * it: exports them to a new file per version (engines cache by path, and a
 * run keeps its history) and swaps that file in; the client builds a new
 * context and disposes the old one once calls on it finish.
 */
export async function syncPolicy(options: SyncPolicyOptions): Promise<PolicySync> {
  const { policy, client, directory, version } = options;
  const started = performance.now();
  const format = await weightSyncFormat(policy, options.format);
  const path =
    format === "adapter"
      ? await exportLoraAdapter(policy, join(directory, `policy-v${version}.lora.gguf`))
      : await exportPolicyModel(policy, join(directory, `policy-v${version}.gguf`));
  const exported = performance.now();
  await client.swapWeights(format === "adapter" ? { policyVersion: version, loraPath: path } : { policyVersion: version, modelPath: path });
  return { path, format, version, exportSeconds: (exported - started) / 1000, swapSeconds: (performance.now() - exported) / 1000 };
}
