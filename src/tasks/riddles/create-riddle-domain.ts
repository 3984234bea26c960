import type { RiddleConfig } from "../../riddles/riddle-config.js";
import { ArithmeticDomain, type ArithmeticDomainOptions } from "../arithmetic/arithmetic-riddle-domain.js";
import { FreeFormDomain, type FreeFormDomainOptions } from "../../riddles/domains/free-form-domain.js";
import type { RiddleDomain } from "../../riddles/domains/riddle-domain.js";

export interface RiddleDomainOptions {
  arithmetic?: ArithmeticDomainOptions;
  freeForm?: FreeFormDomainOptions;
}

/** The domain a config names. */
export function createRiddleDomain(name: RiddleConfig["domain"], options: RiddleDomainOptions = {}): RiddleDomain {
  return name === "arithmetic" ? new ArithmeticDomain(options.arithmetic) : new FreeFormDomain(options.freeForm);
}
