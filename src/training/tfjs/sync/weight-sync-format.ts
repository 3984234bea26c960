import { z } from "zod";
import { InvalidInputError } from "../../../core/errors/index.js";
import { QuantisedPolicyExportError } from "../errors/index.js";
import { GgufReader } from "../../../gguf/gguf-reader.js";
import type { Policy } from "../policy/policy.js";

/**
 * How a policy version reaches the engine:
 * - `full`: every weight, as an f32 model GGUF (`exportPolicyModel`), loaded as a new model.
 * - `adapter`: the trained LoRA factors, as an adapter GGUF (`exportLoraAdapter`), served over the base already loaded.
 */
export const WeightSyncFormatSchema = z.enum(["full", "adapter"]);
export type WeightSyncFormat = z.infer<typeof WeightSyncFormatSchema>;

/**
 * The format a policy syncs in: its adapter when it trains one; else full
 * weights, but only over an all-f32 base. A quantised or f16 base without an
 * adapter is a QuantisedPolicyExportError, since full export would write it as
 * f32 (several times its size) every version; `requested: "full"` accepts that.
 */
export async function weightSyncFormat(policy: Policy, requested?: WeightSyncFormat): Promise<WeightSyncFormat> {
  const possible: WeightSyncFormat = policy.loraPath === undefined ? "full" : "adapter";
  if (requested !== undefined && requested !== possible) {
    throw new InvalidInputError("format", `"${possible}" for a policy ${possible === "adapter" ? "with" : "without"} a LoRA adapter`, requested);
  }
  if (possible === "adapter" || requested === "full") return possible;
  const reader = await GgufReader.open(policy.modelPath);
  try {
    const types = [...new Set(reader.tensors.map((tensor) => tensor.type))].filter((type) => type !== "f32");
    if (types.length > 0) throw new QuantisedPolicyExportError(policy.modelPath, types);
    return "full";
  } finally {
    await reader.close();
  }
}
