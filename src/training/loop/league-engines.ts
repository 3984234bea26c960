import { access } from "node:fs/promises";
import { join } from "node:path";
import type { InferenceClient } from "../../core/inference-client.js";
import type { Device } from "../../inference/device/device-option.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";

export interface LeagueEnginesOptions {
  /** The run's base model. */
  modelPath: string;
  /** The run's `policies/` folder, where the trainer syncs `policy-v<N>.lora.gguf` or `policy-v<N>.gguf`. */
  policies: string;
  sequences: number;
  contextSize?: number;
  device: Device;
}

/**
 * An engine for each snapshot of a league, each in its own context: the base
 * model (version 0), the base with the version's adapter (`policy-v<N>.lora.gguf`) or the version's
 * full model (`policy-v<N>.gguf`), opened from the synced file and serving
 * `policyVersion` N, so its Steps record the version that played them.
 * node-llama-cpp binds an adapter to a context, not to a request, so one
 * context a snapshot is what the engine supports; nothing is synced into them.
 */
export class LeagueEngines {
  private readonly clients = new Map<number, InferenceClient>();

  constructor(private readonly options: LeagueEnginesOptions) {}

  /** The engine serving `version` (opened by `open`). */
  client(version: number): InferenceClient {
    const client = this.clients.get(version);
    if (!client) throw new Error(`league snapshot v${version} is not open`);
    return client;
  }

  async open(version: number): Promise<void> {
    if (this.clients.has(version)) return;
    const { modelPath, sequences, contextSize, device } = this.options;
    const context = { sequences, device, ...(contextSize !== undefined && { contextSize }) };
    const client = await LlamaInferenceClient.create({ modelPath, ...context });
    // Version 0 is the initial policy: the base itself (a trainer's initial adapter changes nothing).
    if (version > 0) await this.swapTo(client, version);
    this.clients.set(version, client);
  }

  private async swapTo(client: InferenceClient, version: number): Promise<void> {
    const adapter = join(this.options.policies, `policy-v${version}.lora.gguf`);
    try {
      await client.swapWeights((await exists(adapter)) ? { policyVersion: version, loraPath: adapter } : { policyVersion: version, modelPath: join(this.options.policies, `policy-v${version}.gguf`) });
    } catch (error) {
      await client.dispose();
      throw error;
    }
  }

  async close(version: number): Promise<void> {
    await this.clients.get(version)?.dispose();
    this.clients.delete(version);
  }

  async dispose(): Promise<void> {
    for (const version of [...this.clients.keys()]) await this.close(version);
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
