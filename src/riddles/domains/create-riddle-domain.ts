import type { RiddleConfig } from "../riddle-config.js";
import { ArithmeticDomain, type ArithmeticDomainOptions } from "./arithmetic-domain.js";
import { FreeFormDomain, type FreeFormDomainOptions } from "./free-form-domain.js";
import type { RiddleDomain } from "./riddle-domain.js";

export interface RiddleDomainOptions {
  arithmetic?: ArithmeticDomainOptions;
  freeForm?: FreeFormDomainOptions;
}

/** The domain a config names. */
export function createRiddleDomain(name: RiddleConfig["domain"], options: RiddleDomainOptions = {}): RiddleDomain {
  return name === "arithmetic" ? new ArithmeticDomain(options.arithmetic) : new FreeFormDomain(options.freeForm);
}
