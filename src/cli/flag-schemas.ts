import { z } from "zod";

/** A flag holding an integer in [minimum, maximum]; commander hands flags over as strings. */
export const integerFlag = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: `an integer from ${minimum} to ${maximum}` })
    .int(`an integer from ${minimum} to ${maximum}`)
    .min(minimum, `an integer from ${minimum} to ${maximum}`)
    .max(maximum, `an integer from ${minimum} to ${maximum}`);

/** A flag holding a finite number in [minimum, maximum]. */
export const numberFlag = (minimum: number, maximum: number) =>
  z.coerce
    .number({ error: `a number from ${minimum} to ${maximum}` })
    .min(minimum, `a number from ${minimum} to ${maximum}`)
    .max(maximum, `a number from ${minimum} to ${maximum}`);
