import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import type { DecodeMode } from "./decode-settings.js";
import { measureClientRollouts, type ArenaRolloutsMeasurement, type RolloutWorkload } from "./measure-client-rollouts.js";

export interface ArenaRolloutsOptions extends RolloutWorkload {
  /** The engine the rollouts run on: a native-decoder client opened for the measurement and disposed after it. */
  engine: { modelPath: string; sequences: number; threads: number; mode: DecodeMode; contextPerSequence: number };
}

/** Arena rollouts end to end in this process: episodes, model calls with logprobs, Step validation, verifiers. */
export async function measureArenaRollouts(options: ArenaRolloutsOptions): Promise<ArenaRolloutsMeasurement> {
  const { modelPath, sequences, threads, mode, contextPerSequence } = options.engine;
  const client = await LlamaInferenceClient.create({ modelPath, sequences, threads, mode, contextSize: contextPerSequence, decoder: "native" });
  try {
    return await measureClientRollouts(client, options);
  } finally {
    await client.dispose();
  }
}
