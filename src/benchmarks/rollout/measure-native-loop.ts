import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import { NativeGenerationEngine } from "../../inference/native/native-generation-engine.js";
import type { ReplayOptions } from "./decode-request.js";
import { ENDLESS_GRAMMAR } from "./fixed-length-episode.js";

/**
 * selfplay's native loop alone, replaying our arena's requests (the same
 * prompt token ids, each completion held to the length it had there by the
 * endless grammar): no arena, client or per-token JavaScript. Returns
 * generated tokens per second.
 */
export async function measureNativeLoop(options: ReplayOptions): Promise<number> {
  const engine = await NativeGenerationEngine.create({
    modelPath: options.modelPath,
    sequences: options.sequences,
    contextSize: options.contextPerSequence,
    threads: options.threads,
    mode: options.mode,
  });
  try {
    const round = async (index: number) => {
      const requests = options.requests.map((request, position) => ({
        promptTokenIds: Int32Array.from(request.promptTokenIds),
        maxTokens: request.generatedTokens,
        sampler: { ...DEFAULT_SAMPLER, seed: index * 100_000 + position },
        grammar: { gbnf: ENDLESS_GRAMMAR },
      }));
      const started = performance.now();
      const results = await engine.generate(requests);
      const seconds = (performance.now() - started) / 1000;
      return results.reduce((sum, result) => sum + result.completionTokenIds.length, 0) / seconds;
    };
    await round(0);
    let best = 0;
    for (let index = 1; index <= options.rounds; index++) best = Math.max(best, await round(index));
    return best;
  } finally {
    await engine.dispose();
  }
}
