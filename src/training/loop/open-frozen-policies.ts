import { resolve } from "node:path";
import type { InferenceClient } from "../../core/inference-client.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import type { Device } from "../../inference/device/device-option.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { LORA_ADAPTER_KEYS } from "../../inference/model-files/lora-adapter-format.js";

/** The frozen policies of a run, opened, and a way to close them all. */
export interface FrozenPolicies {
  /** The client serving each frozen role (`ArenaOptions.roleClients`). */
  roleClients: Record<string, InferenceClient>;
  dispose(): Promise<void>;
}

/**
 * Opens an engine for each policy an environment's `frozenRoles` names:
 * `"base"` is the run's base model; a path is a GGUF model, or a LoRA adapter
 * (`general.type` "adapter") served over the base. Roles naming the same
 * policy share one engine. Nothing is ever synced into them.
 */
export async function openFrozenPolicies(
  frozenRoles: Readonly<Record<string, string>>,
  modelPath: string,
  sequences: number,
  /** The environment's `contextSize`, when it asks for one: a frozen opponent reads the same prompts. */
  contextSize?: number,
  /** The run's device (`configuration.device`). Default "auto". */
  device: Device = "auto",
  /** CPU threads of each frozen engine's decode. Default: the engine's (`LlamaInferenceClientOptions.threads`). */
  threads?: number,
): Promise<FrozenPolicies> {
  const context = { device, ...(contextSize !== undefined && { contextSize }), ...(threads !== undefined && { threads }) };
  const byPolicy = new Map<string, InferenceClient>();
  const roleClients: Record<string, InferenceClient> = {};
  const dispose = async () => {
    for (const client of byPolicy.values()) await client.dispose();
  };
  try {
    for (const [roleId, policy] of Object.entries(frozenRoles)) {
      const key = policy === "base" ? resolve(modelPath) : resolve(policy);
      let client = byPolicy.get(key);
      if (!client) {
        client = await LlamaInferenceClient.create(
          policy !== "base" && (await isAdapter(policy)) ? { modelPath, loraPath: policy, sequences, ...context } : { modelPath: key, sequences, ...context },
        );
        byPolicy.set(key, client);
      }
      roleClients[roleId] = client;
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { roleClients, dispose };
}

async function isAdapter(path: string): Promise<boolean> {
  const reader = await GgufReader.open(path);
  try {
    return reader.metadata.get(LORA_ADAPTER_KEYS.generalType)?.value === "adapter";
  } finally {
    await reader.close();
  }
}
