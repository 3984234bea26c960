import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { exportGgmlAdapter } from "../../training/ggml/export-ggml-adapter.js";
import { GgmlPolicy } from "../../training/ggml/ggml-policy.js";
import type { TrainerBenchResult } from "./trainer-bench-result.js";

/**
 * The ggml trainer's adapter sync as `GgmlTrainer.sync` runs it: the LoRA
 * factors exported to an adapter GGUF, then swapped into a serving
 * LlamaInferenceClient over the same base. The fastest of `versions` syncs.
 */
export async function measureAdapterSync(modelPath: string, loraPath: string, versions: number): Promise<TrainerBenchResult["weightSync"]> {
  const folder = await mkdtemp(join(tmpdir(), "selfplay-adapter-sync-"));
  const policy = await GgmlPolicy.load({ modelPath, loraPath });
  const client = await LlamaInferenceClient.create({ modelPath, sequences: 1 });
  try {
    let best: TrainerBenchResult["weightSync"] = { format: "adapter", exportSeconds: 0, swapSeconds: 0, seconds: Infinity };
    for (let version = 1; version <= versions; version++) {
      const started = performance.now();
      const path = await exportGgmlAdapter(policy, join(folder, `policy-v${version}.lora.gguf`));
      const exported = performance.now();
      await client.swapWeights({ policyVersion: version, loraPath: path });
      const exportSeconds = (exported - started) / 1000;
      const swapSeconds = (performance.now() - exported) / 1000;
      if (exportSeconds + swapSeconds < best.seconds) best = { format: "adapter", exportSeconds, swapSeconds, seconds: exportSeconds + swapSeconds };
    }
    return best;
  } finally {
    await client.dispose();
    await policy.dispose();
    await rm(folder, { recursive: true, force: true });
  }
}
