import { SelfplayError } from "../../core/errors/index.js";

/** A server cannot do what was asked of it (token-id logprobs of the sampled distribution, a weight update); the message says why and how to start it so it can. */
export class ServerCapabilityError extends SelfplayError {
  override readonly name: string = "ServerCapabilityError";
}
