import { describe, expect, it } from "vitest";
import { summariseError } from "../../../src/dream/journal/summarise-error.js";

describe("summariseError", () => {
  it("keeps Node's error line and the first stack frame", () => {
    const stderr = [
      "/tmp/run/solution.js:4",
      "  const code = match[1];",
      "                    ^",
      "",
      "TypeError: Cannot read properties of null (reading '1')",
      "    at parse (/tmp/run/solution.js:4:21)",
      "    at Array.map (<anonymous>)",
      "",
      "Node.js v20.18.0",
    ].join("\n");
    expect(summariseError(stderr)).toBe("TypeError: Cannot read properties of null (reading '1') | at parse (/tmp/run/solution.js:4:21)");
  });

  it("keeps the last three non-empty lines when no error line is found, without colour codes", () => {
    expect(summariseError("\u001b[31mline 1\u001b[0m\nline 2\n\nline 3\nline 4\n")).toBe("line 2 | line 3 | line 4");
  });

  it("caps the summary", () => {
    const summary = summariseError(`Error: ${"x".repeat(1000)}`, 50);
    expect(summary).toHaveLength(50);
    expect(summary.endsWith("…")).toBe(true);
  });
});
