import { InvalidInputError } from "../errors/index.js";

/** Checks that a solve (pass) rate is a probability. */
export function assertSolveRate(passRate: number): void {
  if (!(passRate >= 0 && passRate <= 1)) {
    throw new InvalidInputError("passRate", "a number in [0, 1]", passRate);
  }
}
