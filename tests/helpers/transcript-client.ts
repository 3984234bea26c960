import type { GenerateOptions, GenerationOutput, GenerationRequest, InferenceClient, WeightUpdate } from "../../src/core/inference-client.js";

/** One call a TranscriptClient passed on: the request as sent and the text that came back. */
export interface TranscriptEntry {
  request: GenerationRequest;
  text: string;
}

/**
 * Passes every call to a real client and keeps what was asked and answered, in the order the answers came: lets a
 * test read a model's raw outputs (a judge's verdict text, say) beside what the system made of them.
 */
export class TranscriptClient implements InferenceClient {
  readonly entries: TranscriptEntry[] = [];

  constructor(private readonly inner: InferenceClient) {}

  get capabilities(): InferenceClient["capabilities"] {
    return this.inner.capabilities;
  }

  get policyVersion(): number {
    return this.inner.policyVersion;
  }

  async generate(requests: readonly GenerationRequest[], options?: GenerateOptions): Promise<GenerationOutput[]> {
    const outputs = await this.inner.generate(requests, options);
    outputs.forEach((output, index) => this.entries.push({ request: requests[index] as GenerationRequest, text: output.text }));
    return outputs;
  }

  swapWeights(update: WeightUpdate): Promise<void> {
    return this.inner.swapWeights(update);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
