import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { NativeEngineDisposedError, GrammarRejectedTokenError } from "../../../src/inference/errors/index.js";
import { isTokenAllowed, maskedPositions, type ConstraintMasks } from "../../../src/inference/grammar/constraint-masks.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { NativeConstraintMasks } from "../../../src/inference/native/native-constraint-masks.js";
import { nativeAddon, skipNote } from "./native-addon-for-tests.js";

const { binding } = nativeAddon;
/** The byte vocabulary: token 3 + b is byte b; 2 ends a sequence. */
const byte = (character: string) => character.charCodeAt(0) + 3;
const END_OF_SEQUENCE = 2;
const GRAMMAR = 'root ::= [ab]{1,3} "."';

function allowedAt(masks: ConstraintMasks, position: number): number[] {
  return Array.from({ length: masks.vocabularySize }, (_, token) => token).filter((token) => isTokenAllowed(masks, position, token));
}

describe.skipIf(binding === undefined)(`NativeConstraintMasks${skipNote}`, () => {
  let modelPath: string;
  let masks: NativeConstraintMasks;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-constraint-masks-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 4 })).path;
    masks = await NativeConstraintMasks.create(modelPath);
  });

  afterAll(async () => {
    await masks.dispose();
  });

  it("gives the tokens the grammar allowed at every position, the end of sequence only once it can end", async () => {
    const replayed = await masks.replay({ gbnf: GRAMMAR, logitBias: { ".": 1.5, a: -2 } }, [byte("a"), byte("b"), byte("."), END_OF_SEQUENCE]);
    expect(replayed.vocabularySize).toBe(259);
    expect(replayed.wordsPerPosition).toBe(9);
    expect(maskedPositions(replayed)).toBe(4);
    expect(allowedAt(replayed, 0)).toEqual([byte("a"), byte("b")]);
    expect(allowedAt(replayed, 1)).toEqual([byte("."), byte("a"), byte("b")]);
    expect(allowedAt(replayed, 2)).toEqual([byte("."), byte("a"), byte("b")]);
    expect(allowedAt(replayed, 3)).toEqual([END_OF_SEQUENCE]);
    expect(Array.from(replayed.logitBias.tokenIds)).toEqual([byte("."), byte("a")]);
    expect(Array.from(replayed.logitBias.values)).toEqual([1.5, -2]);
  });

  it("refuses what does not belong together with named errors, never an abort", async () => {
    await expect(masks.replay({ gbnf: GRAMMAR }, [byte("c")])).rejects.toThrowError(GrammarRejectedTokenError);
    // The end of sequence before the grammar can end, and tokens after it.
    await expect(masks.replay({ gbnf: GRAMMAR }, [byte("a"), END_OF_SEQUENCE])).rejects.toThrowError(/completion token 1 \(id 2\) is not allowed/);
    await expect(masks.replay({ gbnf: GRAMMAR }, [byte("a"), byte("."), END_OF_SEQUENCE, byte("a")])).rejects.toThrowError(/ends generation but more tokens follow/);
    await expect(masks.replay({ gbnf: "root ::= (" }, [byte("a")])).rejects.toThrowError(InvalidInputError);
    await expect(masks.replay({ gbnf: GRAMMAR, root: "start" }, [byte("a")])).rejects.toThrowError(/constraint\.gbnf: .*rule "start"/);
    await expect(masks.replay({ gbnf: GRAMMAR, logitBias: { ab: 1 } }, [byte("a")])).rejects.toThrowError(/constraint\.logitBias: .*"ab" is 2 tokens/);
    await expect(masks.replay({ gbnf: GRAMMAR }, [259])).rejects.toThrowError(/completionTokenIds\[0\]/);
    await expect(masks.replay({ gbnf: GRAMMAR }, [1.5])).rejects.toThrowError(/completionTokenIds\[0\]/);
  });

  it("the binding checks its arguments itself", async () => {
    const model = await binding!.loadModel({ path: modelPath, device: "CPU" });
    try {
      expect(() => model.replayGrammarMasks(undefined as never)).toThrowError(TypeError);
      expect(() => model.replayGrammarMasks({ grammar: GRAMMAR, completionTokens: [1] as never })).toThrowError(/completionTokens: expected an Int32Array/);
      expect(() => model.replayGrammarMasks({ grammar: "", completionTokens: Int32Array.of(1) })).toThrowError(/options\.grammar/);
      expect(() => model.replayGrammarMasks({ grammar: GRAMMAR, completionTokens: Int32Array.of(-1) })).toThrowError(/completionTokens\[0\]/);
      expect(() => model.replayGrammarMasks({ grammar: GRAMMAR, grammarRoot: "", completionTokens: Int32Array.of(1) })).toThrowError(/grammarRoot/);
      expect(() => model.replayGrammarMasks({ grammar: GRAMMAR, completionTokens: Int32Array.of(1), logitBiasTexts: [3] as never })).toThrowError(/logitBiasTexts\[0\]/);
      const empty = await model.replayGrammarMasks({ grammar: GRAMMAR, completionTokens: new Int32Array() });
      expect(empty.allowed.length).toBe(0);
    } finally {
      await model.dispose();
    }
    expect(() => model.replayGrammarMasks({ grammar: GRAMMAR, completionTokens: Int32Array.of(1) })).toThrowError(/disposed/);
  });

  it("is unusable after dispose", async () => {
    const other = await NativeConstraintMasks.create(modelPath);
    await other.dispose();
    await expect(other.replay({ gbnf: GRAMMAR }, [byte("a")])).rejects.toThrowError(NativeEngineDisposedError);
  });
});
