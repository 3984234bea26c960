import type { GenerationOutput, GenerationRequest, InferenceClient } from "../core/inference-client.js";

interface Pending {
  request: GenerationRequest;
  resolve: (output: GenerationOutput) => void;
  reject: (error: unknown) => void;
}

/**
 * Coalesces the model calls that episodes make in the same turn of the event
 * loop into batched `generate` calls of up to `parallelSequences` sequences,
 * so concurrent episodes share the engine's batched decoding. When a batched
 * call fails, each of its requests is retried alone, so only the bad ones fail.
 */
export class ModelGateway {
  private pending: Pending[] = [];
  private flushScheduled = false;

  constructor(
    private readonly client: InferenceClient,
    private readonly signal?: AbortSignal,
  ) {}

  generate(request: GenerationRequest): Promise<GenerationOutput> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const queued = this.pending;
    this.pending = [];
    const size = this.client.capabilities.parallelSequences;
    for (let start = 0; start < queued.length; start += size) {
      void this.send(queued.slice(start, start + size));
    }
  }

  private async send(batch: Pending[]): Promise<void> {
    try {
      const outputs = await this.client.generate(
        batch.map((entry) => entry.request),
        this.signal ? { signal: this.signal } : {},
      );
      if (outputs.length !== batch.length) {
        throw new Error(`inference client returned ${outputs.length} outputs for ${batch.length} requests`);
      }
      batch.forEach((entry, index) => entry.resolve(outputs[index] as GenerationOutput));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // One bad request (a prompt longer than the context, say) must not fail its batch-mates: retry each alone.
      await Promise.all(batch.map((entry) => this.send([entry])));
    }
  }
}
