import type { MessagePort } from "node:worker_threads";
import { toErrorRecord } from "../../core/errors/index.js";
import type { GenerationOutput } from "../../core/inference-client.js";
import type { FailureStage } from "../../core/schemas/generate-result.js";
import type { ModelGateway } from "../model-gateway.js";
import type { PausableTimeout } from "./pausable-timeout.js";
import { WorkerMessageSchema, type MainMessage, type WorkerMessage, type WorkerWeights } from "./pool-messages.js";
import { transferListOf } from "./transfer-list.js";

/** What the main thread offers a running episode. */
export interface TaskChannelServices {
  policy: ModelGateway;
  judge: ModelGateway;
  /** The weights per-worker engines must serve; absent with a shared engine. */
  weights: (() => WorkerWeights) | undefined;
}

/**
 * The main thread's end of one running episode's port: serves its model calls
 * through the shared gateways (so they batch with every other worker's),
 * follows its lifecycle stage, and stops its timeout while a model call runs.
 */
export class TaskChannel {
  /** The stage the episode last reported; a crash is recorded at it. */
  stage: FailureStage = "artifact";
  /**
   * Resolves once the port is closed — when the worker's thread has ended, or
   * by `close()`. Messages the worker sent before it died arrive before this:
   * a crash must be recorded at the stage the worker last reported, and the
   * pool learns of the crash on another channel than the stage reports.
   */
  readonly disconnected: Promise<void>;
  private closed = false;

  constructor(
    private readonly port: MessagePort,
    private readonly services: TaskChannelServices,
    private readonly timeout: PausableTimeout,
    /** Called when the worker sends something the protocol does not allow: the pool treats it as a crash. */
    private readonly onProtocolError: (reason: string) => void,
  ) {
    port.on("message", (message: unknown) => this.receive(message));
    this.disconnected = new Promise((resolve) => port.once("close", () => resolve()));
  }

  /** Tells the worker the run was aborted: its episode sees an aborted signal, as in-process. */
  abort(): void {
    this.post({ type: "abort" });
  }

  close(): void {
    this.closed = true;
    this.port.close();
  }

  private receive(raw: unknown): void {
    const parsed = WorkerMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.onProtocolError(`the worker sent a malformed message (${parsed.error.issues[0]?.message ?? "invalid"})`);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case "started":
        this.timeout.start();
        return;
      case "generate":
        void this.serve(message);
        return;
      case "stage":
        this.stage = message.stage;
        return;
      case "model-call":
        if (message.active) this.timeout.pause();
        else this.timeout.resume();
        return;
      case "weights-request":
        if (this.services.weights) this.post({ type: "weights", id: message.id, weights: this.services.weights() });
        else this.onProtocolError("the worker asked for weights, but the pool's engine is shared");
        return;
    }
  }

  private async serve(message: Extract<WorkerMessage, { type: "generate" }>): Promise<void> {
    const gateway = message.target === "policy" ? this.services.policy : this.services.judge;
    this.timeout.pause();
    try {
      const outputs: GenerationOutput[] = await Promise.all(message.requests.map((request) => gateway.generate(request)));
      this.post({ type: "generated", id: message.id, outputs }, transferListOf(outputs));
    } catch (error) {
      this.post({ type: "generate-failed", id: message.id, error: toErrorRecord(error) });
    } finally {
      this.timeout.resume();
    }
  }

  private post(message: MainMessage, transfer: ArrayBuffer[] = []): void {
    if (!this.closed) this.port.postMessage(message, transfer);
  }
}
