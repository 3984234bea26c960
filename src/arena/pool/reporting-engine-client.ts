import type { GenerateOptions, GenerationOutput, GenerationRequest, InferenceClient, WeightUpdate } from "../../core/inference-client.js";
import type { WorkerTaskChannel } from "./worker-task-channel.js";

/**
 * One episode's view of its worker's own engine: tells the main thread when
 * its model calls start and end, so the episode's timeout skips that time.
 */
export class ReportingEngineClient implements InferenceClient {
  constructor(
    private readonly engine: InferenceClient,
    private readonly channel: WorkerTaskChannel,
  ) {}

  get capabilities() {
    return this.engine.capabilities;
  }

  get policyVersion(): number {
    return this.engine.policyVersion;
  }

  async generate(requests: readonly GenerationRequest[], options?: GenerateOptions): Promise<GenerationOutput[]> {
    this.channel.reportModelCall(true);
    try {
      return await this.engine.generate(requests, options);
    } finally {
      this.channel.reportModelCall(false);
    }
  }

  swapWeights(update: WeightUpdate): Promise<void> {
    return this.engine.swapWeights(update);
  }

  async dispose(): Promise<void> {}
}
