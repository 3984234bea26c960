import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { loadLlama } from "../../inference/llama/load-llama.js";
import { DECODE_SETTINGS, nativeBatchSize } from "./decode-settings.js";
import type { DecodeRequest, ReplayOptions } from "./decode-request.js";

/**
 * node-llama-cpp's plain evaluate loop: one `sequence.evaluate` per request,
 * `sequences` of them at once over one context (node-llama-cpp batches their
 * decodes), the untruncated temperature-1 sampler, the end of sequence fed
 * back like any token (`yieldEogToken`) so each request gets its length.
 * Returns generated tokens per second. Runs in a process of its own
 * (`measureNodeLlamaCppLoop`).
 */
export async function replayOnNodeLlamaCpp(options: ReplayOptions): Promise<number> {
  const settings = DECODE_SETTINGS[options.mode];
  const kvCacheType = settings.kvCacheType === "f32" ? "F32" : "F16";
  const llama = await loadLlama("cpu");
  const model = await llama.loadModel({ modelPath: options.modelPath });
  try {
    const context = await model.createContext({
      sequences: options.sequences,
      contextSize: options.contextPerSequence,
      batchSize: nativeBatchSize(options.sequences, options.contextPerSequence),
      threads: options.threads,
      flashAttention: settings.flashAttention === "auto" ? "auto" : false,
      experimentalKvCacheKeyType: kvCacheType,
      experimentalKvCacheValueType: kvCacheType,
    });
    const slots = Array.from({ length: options.sequences }, () => context.getSequence());
    const round = async (index: number) => {
      let next = 0;
      let tokens = 0;
      const work = async (sequence: LlamaContextSequence) => {
        while (next < options.requests.length) {
          const position = next++;
          const request = options.requests[position] as DecodeRequest;
          await sequence.clearHistory();
          const evaluation = sequence.evaluate(request.promptTokenIds as Token[], {
            temperature: 1, topK: 0, topP: 1, minP: 0, seed: index * 100_000 + position, yieldEogToken: true,
          });
          let generated = 0;
          for await (const _token of evaluation) {
            if (++generated >= request.generatedTokens) break;
          }
          tokens += generated;
        }
      };
      const started = performance.now();
      await Promise.all(slots.map(work));
      return tokens / ((performance.now() - started) / 1000);
    };
    try {
      await round(0);
      let best = 0;
      for (let index = 1; index <= options.rounds; index++) best = Math.max(best, await round(index));
      return best;
    } finally {
      await context.dispose();
    }
  } finally {
    await model.dispose();
  }
}
