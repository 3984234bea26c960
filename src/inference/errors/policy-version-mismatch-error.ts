import { SelfplayError } from "../../core/errors/index.js";

/** A server answered with another model (policy version) than the request named: the Step would be attributed to the wrong weights. */
export class PolicyVersionMismatchError extends SelfplayError {
  override readonly name: string = "PolicyVersionMismatchError";
}
