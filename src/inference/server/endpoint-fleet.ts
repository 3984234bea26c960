import { EndpointRequestError, EndpointUnavailableError } from "../errors/index.js";

/** One server of a fleet and what the fleet knows of it now. */
export interface EndpointStatus {
  url: string;
  /** Requests sent and not yet answered. */
  inFlight: number;
  /** Requests it may hold at once. */
  capacity: number;
  up: boolean;
  /** Why it was marked down (the failed request's error), while it is. */
  downReason?: string;
  /** Requests answered, and requests that failed on it (each retried elsewhere or failed for good). */
  served: number;
  failed: number;
}

export interface EndpointFleetOptions {
  /** Tries per request, across endpoints. */
  attempts: number;
  /** First retry delay; doubles each retry, with jitter, up to 8 s. */
  retryDelayMilliseconds: number;
  probeIntervalMilliseconds: number;
  /** Resolves when the endpoint answers its health check (throws otherwise). */
  probe(url: string): Promise<void>;
  /** Brings a recovered endpoint up to date (the current weights) before it takes requests again. */
  onRecovered?(url: string): Promise<void>;
}

const MAX_RETRY_DELAY_MILLISECONDS = 8000;

/**
 * Several endpoints serving one policy. A request goes to the live endpoint
 * with the fewest requests in flight (with room left); a retryable failure
 * (refused connection, timeout, 5xx) marks that endpoint down and the request
 * is tried again on another after a backoff. A down endpoint is probed until
 * it answers, then brought up to date and used again. Each request yields one
 * answer or one error, so a retried request is never counted twice.
 */
export class EndpointFleet {
  private readonly endpoints: EndpointStatus[];
  private readonly waiting: Array<() => void> = [];
  private readonly probes = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(endpoints: ReadonlyArray<{ url: string; capacity: number }>, private readonly options: EndpointFleetOptions) {
    this.endpoints = endpoints.map(({ url, capacity }) => ({ url, capacity, inFlight: 0, up: true, served: 0, failed: 0 }));
  }

  /** A snapshot of every endpoint. */
  status(): EndpointStatus[] {
    return this.endpoints.map((endpoint) => ({ ...endpoint }));
  }

  /** The endpoints that are up now (a weight update goes to these; the others get it when they recover). */
  liveUrls(): string[] {
    return this.endpoints.filter((endpoint) => endpoint.up).map((endpoint) => endpoint.url);
  }

  /** Runs `request` on an endpoint, retrying elsewhere on retryable failures; returns its value and the endpoint that answered. */
  async run<T>(request: (url: string) => Promise<T>, signal?: AbortSignal): Promise<{ value: T; url: string }> {
    const failures: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const endpoint = await this.acquire(signal, failures);
      try {
        const value = await request(endpoint.url);
        endpoint.served++;
        return { value, url: endpoint.url };
      } catch (error) {
        endpoint.failed++;
        const retryable = error instanceof EndpointRequestError && error.retryable && signal?.aborted !== true;
        if (!retryable) throw error;
        failures.push(error.message);
        this.markDown(endpoint, error.message);
        if (attempt >= this.options.attempts) {
          throw new EndpointUnavailableError(`a request failed ${attempt} times across the fleet: ${failures.join("; ")}`);
        }
        await delay(backoff(this.options.retryDelayMilliseconds, attempt), signal);
      } finally {
        endpoint.inFlight--;
        this.waiting.shift()?.();
      }
    }
  }

  /** Marks an endpoint down (a failed weight update, a health check) until a probe finds it back. */
  markDown(endpoint: EndpointStatus | string, reason: string): void {
    const status = typeof endpoint === "string" ? this.endpoints.find((candidate) => candidate.url === endpoint) : endpoint;
    if (status === undefined || !status.up) return;
    status.up = false;
    status.downReason = reason;
    this.startProbe(status);
  }

  /** Stops probing; requests still running finish. */
  close(): void {
    this.closed = true;
    for (const timer of this.probes.values()) clearTimeout(timer);
    this.probes.clear();
    for (const wake of this.waiting.splice(0)) wake();
  }

  private async acquire(signal: AbortSignal | undefined, failures: readonly string[]): Promise<EndpointStatus> {
    for (;;) {
      if (signal?.aborted) throw new EndpointUnavailableError("the call was aborted before an endpoint took it");
      if (this.closed) throw new EndpointUnavailableError("the client was disposed");
      const live = this.endpoints.filter((endpoint) => endpoint.up);
      if (live.length === 0) {
        const reasons = this.endpoints.map((endpoint) => `${endpoint.url} (${endpoint.downReason ?? "down"})`).join(", ");
        throw new EndpointUnavailableError(`every endpoint is down: ${reasons}${failures.length > 0 ? `; this request: ${failures.join("; ")}` : ""}`);
      }
      const open = live.filter((endpoint) => endpoint.inFlight < endpoint.capacity);
      const chosen = open.reduce<EndpointStatus | undefined>((best, endpoint) => (best === undefined || endpoint.inFlight < best.inFlight ? endpoint : best), undefined);
      if (chosen !== undefined) {
        chosen.inFlight++;
        return chosen;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private startProbe(endpoint: EndpointStatus): void {
    if (this.closed || this.probes.has(endpoint.url)) return;
    const timer = setTimeout(() => {
      this.probes.delete(endpoint.url);
      void this.probeOnce(endpoint);
    }, this.options.probeIntervalMilliseconds);
    // A probe never keeps the process alive by itself.
    timer.unref();
    this.probes.set(endpoint.url, timer);
  }

  private async probeOnce(endpoint: EndpointStatus): Promise<void> {
    try {
      await this.options.probe(endpoint.url);
      await this.options.onRecovered?.(endpoint.url);
      if (this.closed) return;
      endpoint.up = true;
      delete endpoint.downReason;
      for (const wake of this.waiting.splice(0)) wake();
    } catch (error) {
      endpoint.downReason = error instanceof Error ? error.message : String(error);
      this.startProbe(endpoint);
    }
  }
}

function backoff(first: number, attempt: number): number {
  const base = Math.min(first * 2 ** (attempt - 1), MAX_RETRY_DELAY_MILLISECONDS);
  // Full jitter's upper half: retries from many requests do not arrive together.
  return base * (0.5 + Math.random() / 2);
}

function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
