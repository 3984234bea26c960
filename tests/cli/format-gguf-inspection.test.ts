import { describe, expect, it } from "vitest";
import { formatGgufInspection } from "../../src/cli/format-gguf-inspection.js";

describe("formatGgufInspection", () => {
  it("cuts long strings and arrays short and lines tensors up", () => {
    const text = formatGgufInspection("m.gguf", {
      version: 3,
      alignment: 32,
      metadata: {
        "general.name": "tiny",
        "tokenizer.chat_template": "x".repeat(100),
        "short.list": [1, 2, 3],
        "medium.list": Array.from({ length: 10 }, (_, index) => index),
        "long.list": { itemType: "string", length: 1000, head: ["a", "b"] },
        "flag": true,
      },
      tensors: [
        { name: "a.weight", type: "f32", dims: [4, 2] },
        { name: "longer.weight", type: "q8_0", dims: [32] },
      ],
    });
    expect(text).toBe(
      [
        "m.gguf: GGUF v3, 6 metadata keys, 2 tensors (40 values), alignment 32",
        "metadata:",
        '  general.name = "tiny"',
        `  tokenizer.chat_template = "${"x".repeat(80)}"… (100 characters)`,
        "  short.list = [1, 2, 3]",
        "  medium.list = [× 10: 0, 1, 2, 3, 4, 5, 6, 7, …]",
        '  long.list = [string × 1000: "a", "b", …]',
        "  flag = true",
        "tensors (dims innermost first):",
        "  a.weight       f32     [4, 2]",
        "  longer.weight  q8_0    [32]",
        "",
      ].join("\n"),
    );
  });
});
