import { SelfplayError } from "../../core/errors/index.js";

/**
 * A request to an inference server failed. `retryable` says whether another
 * endpoint (or the same one later) may succeed: a refused connection, a
 * timeout or a 5xx may; a 4xx, which the same request would get again, may not.
 */
export class EndpointRequestError extends SelfplayError {
  override readonly name: string = "EndpointRequestError";
  constructor(
    readonly endpoint: string,
    readonly reason: string,
    readonly retryable: boolean,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
  ) {
    super(`${endpoint}: ${reason}`);
  }
}
