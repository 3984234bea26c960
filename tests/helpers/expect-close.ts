import { expect } from "vitest";

/** Same length, and each element equal to the expected one within 1e-12. */
export function expectAllClose(actual: readonly number[], expected: readonly number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, index) => {
    expect(value, `element ${index}`).toBeCloseTo(expected[index] as number, 12);
  });
}
