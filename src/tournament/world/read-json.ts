import { types } from "node:util";
import type { JsonValue } from "../../core/json.js";
import { fieldName, type FieldProblem } from "./field-problem.js";

/** A submission as the world reads it: its JSON value, or every part of it JSON cannot hold. */
export type ReadJson = { ok: true; value: JsonValue } | { ok: false; problems: FieldProblem[] };

/** What a part JSON cannot hold must be instead. */
export const NOT_JSON_EXPECTED = "a JSON value";
/** Deeper than any action; a bound, so a hostile value cannot exhaust the stack. */
const MAX_DEPTH = 64;
/** Longer than any action needs; a bound, so a sparse `new Array(2 ** 31)` cannot stall the gate. */
const MAX_ARRAY_LENGTH = 10_000;

/**
 * Reads a value as JSON, exactly: a fresh copy whose objects have their keys
 * in code-unit order (JSON's keys have no order, so the order a caller wrote
 * them in never reaches a refusal, a log or a transcript), `-0` as `0`, and a
 * key whose value is `undefined` absent, as `JSON.stringify` has them. Any
 * other part JSON cannot hold — NaN, an infinity, a BigInt, a function, a
 * symbol, a cycle, a getter, a proxy, an object that is not plain, an array
 * hole, `undefined` elsewhere — is a problem at its path, listed in path
 * order; nothing of it is read (no getter runs, no proxy trap fires), so
 * reading never throws.
 */
export function readJson(value: unknown): ReadJson {
  const problems: FieldProblem[] = [];
  const refuse = (path: readonly PropertyKey[], got: string): undefined => {
    problems.push({ field: fieldName(path), got, expected: NOT_JSON_EXPECTED, received: got });
    return undefined;
  };
  const ancestors: object[] = [];
  const copy = (item: unknown, path: PropertyKey[]): JsonValue | undefined => {
    if (item === null || typeof item === "string" || typeof item === "boolean") return item;
    if (typeof item === "number") return Number.isFinite(item) ? item + 0 : refuse(path, String(item));
    if (typeof item === "bigint") return refuse(path, `${item}n`);
    if (typeof item !== "object") return refuse(path, item === undefined ? "nothing" : `a ${typeof item}`);
    if (types.isProxy(item)) return refuse(path, "a proxy");
    if (ancestors.includes(item)) return refuse(path, "a cycle");
    if (ancestors.length >= MAX_DEPTH) return refuse(path, `a value nested deeper than ${MAX_DEPTH} levels`);
    const prototype = Object.getPrototypeOf(item) as unknown;
    const isArray = Array.isArray(item) && prototype === Array.prototype;
    if (!isArray && prototype !== Object.prototype && prototype !== null) return refuse(path, "an object that is not plain (a class instance, a Date, a Map, …)");
    if (isArray && item.length > MAX_ARRAY_LENGTH) return refuse(path, `an array of ${item.length} elements (at most ${MAX_ARRAY_LENGTH})`);
    ancestors.push(item);
    const keys = isArray ? Array.from({ length: item.length }, (_, index) => index) : Object.keys(item).sort();
    const result: JsonValue[] | Record<string, JsonValue> = isArray ? [] : {};
    for (const key of keys) {
      const descriptor = Object.getOwnPropertyDescriptor(item, key);
      const at = [...path, key];
      if (descriptor === undefined) refuse(at, "nothing (an array hole)");
      else if (!("value" in descriptor)) refuse(at, "a getter");
      else if (descriptor.value !== undefined || isArray) {
        const inner = copy(descriptor.value, at);
        // defineProperty, not assignment: an own `__proto__` key stays a key instead of becoming the prototype.
        if (inner !== undefined) Object.defineProperty(result, key, { value: inner, enumerable: true, writable: true, configurable: true });
      }
    }
    ancestors.pop();
    return result;
  };
  const json = copy(value, []);
  return problems.length === 0 ? { ok: true, value: json as JsonValue } : { ok: false, problems };
}
