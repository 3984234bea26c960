import { SelfplayError } from "../../core/errors/index.js";

/** No endpoint of a fleet could serve a request (or be reached when the client connected); the message names each and why. */
export class EndpointUnavailableError extends SelfplayError {
  override readonly name: string = "EndpointUnavailableError";
}
