import type { MessagePort } from "node:worker_threads";
import type { GenerationOutput, GenerationRequest } from "../../core/inference-client.js";
import type { FailureStage } from "../../core/schemas/generate-result.js";
import { MainMessageSchema, type ModelTarget, type WorkerMessage, type WorkerWeights } from "./pool-messages.js";

interface Pending {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
}

/**
 * A worker's end of one running episode's port: sends model calls and
 * progress to the main thread and matches the replies to the calls.
 */
export class WorkerTaskChannel {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly port: MessagePort,
    /** Called when the main thread reports that the run was aborted. */
    onAbort: () => void,
  ) {
    port.on("message", (raw: unknown) => {
      // A malformed reply is a bug between the two ends: throwing kills the worker, and the pool records it as a crash.
      const message = MainMessageSchema.parse(raw);
      if (message.type === "abort") return onAbort();
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === "generate-failed") pending?.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
      else pending?.resolve((message.type === "generated" ? message.outputs : message.weights) as never);
    });
  }

  generate(target: ModelTarget, requests: readonly GenerationRequest[]): Promise<GenerationOutput[]> {
    return this.request((id) => ({ type: "generate", id, target, requests: [...requests] }));
  }

  weights(): Promise<WorkerWeights> {
    return this.request((id) => ({ type: "weights-request", id }));
  }

  reportStarted(): void {
    this.port.postMessage({ type: "started" } satisfies WorkerMessage);
  }

  reportStage(stage: FailureStage): void {
    this.port.postMessage({ type: "stage", stage } satisfies WorkerMessage);
  }

  /** A call on the worker's own engine started or ended: its time does not count against the episode's timeout. */
  reportModelCall(active: boolean): void {
    this.port.postMessage({ type: "model-call", active } satisfies WorkerMessage);
  }

  close(): void {
    this.port.close();
  }

  private request<Result>(message: (id: number) => WorkerMessage): Promise<Result> {
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: never) => void, reject });
      this.port.postMessage(message(id));
    });
  }
}
