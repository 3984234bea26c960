import type {
  GenerationOutput,
  GenerationRequest,
  InferenceCapabilities,
  InferenceClient,
} from "../../src/core/inference-client.js";
import { bytesToTokenIds } from "../../src/inference/byte-tokens.js";

/**
 * An InferenceClient whose `generate` resolves only when the test says so,
 * recording each call's batch: lets tests observe batching and concurrency.
 */
export class RecordingClient implements InferenceClient {
  readonly capabilities: InferenceCapabilities;
  readonly policyVersion = 0;
  readonly batches: GenerationRequest[][] = [];
  private readonly waiting: Array<() => void> = [];

  constructor(parallelSequences = 16, private readonly reply: (request: GenerationRequest) => string = () => "ok") {
    this.capabilities = { tokenIds: true, exactLogprobs: true, grammars: false, jsonSchema: false, lora: false, parallelSequences };
  }

  async generate(requests: readonly GenerationRequest[]): Promise<GenerationOutput[]> {
    this.batches.push([...requests]);
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return requests.map((request) => {
      const text = this.reply(request);
      const completionTokenIds = bytesToTokenIds(text);
      return {
        text,
        promptTokenIds: bytesToTokenIds("prompt"),
        completionTokenIds,
        completionLogprobs: new Float64Array(completionTokenIds.length).fill(-0.5),
        finishReason: "stop",
        constrained: false,
        policyVersion: 0,
      };
    });
  }

  /** Calls waiting for a reply. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Lets every waiting call return. */
  releaseAll(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  async swapWeights(): Promise<void> {}
  async dispose(): Promise<void> {}
}

/** Resolves once `condition` holds, checking after each turn of the event loop (no timers). */
export async function until(condition: () => boolean, maxTurns = 10_000): Promise<void> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error("condition never became true");
}
