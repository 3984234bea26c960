import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidInputError } from "../../core/errors/index.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { Policy } from "../../training/tfjs/policy/policy.js";
import { syncPolicy } from "../../training/tfjs/sync/sync-policy.js";
import type { TrainerBenchResult } from "./trainer-bench-result.js";

/**
 * `syncPolicy` as a training step runs it: the policy's weights exported to a
 * new GGUF file, then swapped into a serving LlamaInferenceClient. The fastest
 * of `versions` syncs (disk and other jobs only slow one down).
 */
export async function measureWeightSync(modelPath: string, versions: number): Promise<TrainerBenchResult["weightSync"]> {
  if (!Number.isInteger(versions) || versions < 1) throw new InvalidInputError("versions", "an integer ≥ 1", versions);
  const folder = await mkdtemp(join(tmpdir(), "selfplay-weight-sync-"));
  const client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
  const policy = await Policy.load({ modelPath });
  try {
    let best: TrainerBenchResult["weightSync"] = { format: "full", exportSeconds: 0, swapSeconds: 0, seconds: Infinity };
    for (let version = 1; version <= versions; version++) {
      const sync = await syncPolicy({ policy, client, directory: folder, version });
      const seconds = sync.exportSeconds + sync.swapSeconds;
      if (seconds < best.seconds) best = { format: sync.format, exportSeconds: sync.exportSeconds, swapSeconds: sync.swapSeconds, seconds };
    }
    return best;
  } finally {
    policy.dispose();
    await client.dispose();
    await rm(folder, { recursive: true, force: true });
  }
}
