import { gbnfLiteral } from "./gbnf-literal.js";

/** Ranges this wide or narrower are spelled out value by value, so the grammar enforces them exactly. */
const ENUMERABLE_RANGE = 64;
/** Longest integer a grammar allows when the schema gives no maximum (JSON numbers beyond 2^53 lose precision anyway). */
const MAX_INTEGER_DIGITS = 16;

/**
 * An expression for integers in [minimum, maximum], or undefined when only the
 * generic integer rule fits (a negative lower bound, say). Small ranges are
 * exact; wide non-negative ones are bounded by digit count and checked by
 * validation afterwards.
 */
export function integerRangeExpression(minimum: number | undefined, maximum: number | undefined): string | undefined {
  const low = minimum === undefined ? undefined : Math.ceil(minimum);
  const high = maximum === undefined ? undefined : Math.floor(maximum);
  if (low !== undefined && high !== undefined && high >= low && high - low <= ENUMERABLE_RANGE) {
    const values = Array.from({ length: high - low + 1 }, (_, index) => gbnfLiteral(String(low + index)));
    return values.length === 1 ? (values[0] as string) : `(${values.join(" | ")})`;
  }
  if (low === undefined || low < 0) return undefined;
  const digits = high === undefined ? MAX_INTEGER_DIGITS : String(high).length;
  return digits === 1 ? "[0-9]" : `("0" | [1-9] [0-9]{0,${digits - 1}})`;
}

/**
 * An expression for decimals in [minimum, maximum] without exponent, or
 * undefined when only the generic number rule fits. A probability-like
 * `[0, 1]` range is exact up to four decimals; other non-negative ranges bound
 * the integer part and allow up to six decimals.
 */
export function numberExpression(minimum: number | undefined, maximum: number | undefined): string | undefined {
  if (minimum !== undefined && maximum !== undefined && minimum >= 0 && maximum <= 1) {
    return '("0" ("." [0-9]{1,4})? | "1" ("." "0"{1,4})?)';
  }
  const integerPart = integerRangeExpression(minimum === undefined ? undefined : Math.floor(minimum), maximum);
  return integerPart === undefined ? undefined : `${integerPart} ("." [0-9]{1,6})?`;
}
