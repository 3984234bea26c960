import { describe, expect, it } from "vitest";
import { expectedCalibrationError } from "../../../src/frontier/metrics/expected-calibration-error.js";

describe("expectedCalibrationError", () => {
  it("weights each bin's |mean label − mean probability| by its share of examples", () => {
    // Bin [0.1, 0.2): p 0.1, 0.15, labels 0, 0 → |0 − 0.125| = 0.125, weight 2/4.
    // Bin [0.9, 1]: p 0.9, 1.0, labels 1, 0 → |0.5 − 0.95| = 0.45, weight 2/4.
    expect(expectedCalibrationError([0.1, 0.15, 0.9, 1], [0, 0, 1, 0])).toBeCloseTo(0.5 * 0.125 + 0.5 * 0.45, 12);
  });

  it("is 0 when every bin is calibrated, and uses the bins asked for", () => {
    expect(expectedCalibrationError([0.25, 0.25, 0.75, 0.75], [0, 0.5, 1, 0.5])).toBeCloseTo(0, 12);
    // One bin: |mean label 0.5 − mean probability 0.3| = 0.2.
    expect(expectedCalibrationError([0.1, 0.5], [0, 1], 1)).toBeCloseTo(0.2, 12);
    expect(expectedCalibrationError([], [])).toBeNaN();
    expect(() => expectedCalibrationError([0.5], [1], 0)).toThrow(/bins/);
  });
});
