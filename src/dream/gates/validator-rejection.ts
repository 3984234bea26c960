import { z } from "zod";

/**
 * Why a gate rejected a validator; the regeneration loop turns each kind into
 * targeted feedback for the generator.
 */
export const ValidatorRejectionKindSchema = z.enum([
  /** acorn could not parse it. */
  "unparseable",
  /** Math.random or a crypto random* function: the verdict could change between runs. */
  "randomness",
  /** Date.now, new Date(), performance.now, process.hrtime: the verdict depends on when it runs. */
  "clock",
  /** It names none of the files the setup writes, so it cannot be checking the solution against them. */
  "no-fixture-reference",
  /** It never names the output file the solution writes. */
  "no-output-reference",
  /** The self-test gate: it failed on the expected value it computed itself. */
  "self-contradicting",
]);
export type ValidatorRejectionKind = z.infer<typeof ValidatorRejectionKindSchema>;

/** A gate's rejection: the kind, and a message for the generator saying what to change. */
export interface ValidatorRejection {
  kind: ValidatorRejectionKind;
  message: string;
  /** 1-based line in the validator, where the gate found the problem. */
  line?: number;
}
