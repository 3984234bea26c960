import { describe, expect, it } from "vitest";
import { BYTE_VOCABULARY_SIZE, byteVocabulary, isByteVocabulary } from "../../../src/inference/model-files/byte-vocabulary.js";

describe("isByteVocabulary", () => {
  it("holds for the byte vocabulary of project-made models, at its own size and padded", () => {
    expect(isByteVocabulary(byteVocabulary().tokens)).toBe(true);
    expect(isByteVocabulary(byteVocabulary(151_936).tokens)).toBe(true);
  });

  it("fails for any other token at any id, and for a vocabulary too small to hold the bytes", () => {
    for (const id of [0, 3, 3 + 0x41, BYTE_VOCABULARY_SIZE - 1, 400]) {
      const tokens = byteVocabulary(512).tokens;
      tokens[id] = "Ġthe";
      expect(isByteVocabulary(tokens), `id ${id}`).toBe(false);
    }
    expect(isByteVocabulary(byteVocabulary().tokens.slice(0, BYTE_VOCABULARY_SIZE - 1))).toBe(false);
    expect(isByteVocabulary([])).toBe(false);
  });
});
