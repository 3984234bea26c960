import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerationOutput, GenerationRequest, InferenceCapabilities, InferenceClient } from "../../core/inference-client.js";
import type { ModelTarget } from "./pool-messages.js";
import type { WorkerTaskChannel } from "./worker-task-channel.js";

/**
 * Inside a pool worker: the arena's client on the main thread, reached over
 * the task's port. Its aborts come from the main thread, which holds the signal.
 */
export class PortInferenceClient implements InferenceClient {
  readonly capabilities: InferenceCapabilities;
  private lastVersion = 0;

  constructor(
    private readonly channel: WorkerTaskChannel,
    private readonly target: ModelTarget,
    capabilities: InferenceCapabilities,
  ) {
    // One call per message, so each gets its own reply and one bad request never sends its
    // batch-mates round again; the main thread's gateway batches the calls of every worker.
    this.capabilities = { ...capabilities, parallelSequences: 1 };
  }

  /** The version of the weights that served the last call: the main thread's client decides it. */
  get policyVersion(): number {
    return this.lastVersion;
  }

  async generate(requests: readonly GenerationRequest[]): Promise<GenerationOutput[]> {
    const outputs = await this.channel.generate(this.target, requests);
    for (const output of outputs) this.lastVersion = Math.max(this.lastVersion, output.policyVersion);
    return outputs;
  }

  async swapWeights(): Promise<void> {
    throw new InvalidInputError("swapWeights", "a call on the arena's client in the main thread (pool workers use whatever it serves)");
  }

  async dispose(): Promise<void> {}
}
