import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidInputError, UnknownKeyError } from "../../src/core/errors/index.js";
import { parseInput } from "../../src/core/parse-input.js";
import { nearestKey } from "../../src/core/unknown-key-message.js";

const ConfigurationSchema = z.strictObject({
  steps: z.number().int().default(150),
  seed: z.number().int().default(0),
  trainer: z
    .strictObject({
      optimizer: z.strictObject({ learningRate: z.number().default(1e-3), weightDecay: z.number().default(0) }).default({ learningRate: 1e-3, weightDecay: 0 }),
      epochs: z.number().default(1),
    })
    .optional(),
  runs: z.array(z.strictObject({ name: z.string() })).optional(),
});

describe("nearestKey", () => {
  it("picks the valid key fewest edits away, ignoring case", () => {
    expect(nearestKey("stepz", ["steps", "seed", "trainer"])).toBe("steps");
    expect(nearestKey("learningRat", ["learningRate", "weightDecay"])).toBe("learningRate");
    expect(nearestKey("LEARNINGRATE", ["learningRate", "weightDecay"])).toBe("learningRate");
    expect(nearestKey("sed", ["steps", "seed"])).toBe("seed");
  });

  it("names none when no key is a plausible misspelling", () => {
    expect(nearestKey("colour", ["steps", "seed"])).toBeUndefined();
    expect(nearestKey("x", [])).toBeUndefined();
  });
});

describe("parseInput with strict objects", () => {
  it("names an unknown top-level key and its nearest valid key", () => {
    const error = catchError(() => parseInput(ConfigurationSchema, { stepz: 10 }));
    expect(error).toBeInstanceOf(UnknownKeyError);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toBe('stepz: unknown key; did you mean "steps"?');
  });

  it("names the whole path of a nested unknown key, through defaults, optionals and arrays", () => {
    const error = catchError(() => parseInput(ConfigurationSchema, { trainer: { optimizer: { learningRat: 0.1 } } }, { fieldName: (path) => `my.json: ${path.map(String).join(".")}` }));
    expect(error.message).toBe('my.json: trainer.optimizer.learningRat: unknown key; did you mean "learningRate"?');
    expect((error as UnknownKeyError).field).toBe("my.json: trainer.optimizer.learningRat");
    expect(catchError(() => parseInput(ConfigurationSchema, { runs: [{ name: "a" }, { nmae: "b" }] })).message).toBe('runs.1.nmae: unknown key; did you mean "name"?');
  });

  it("lists the valid keys when none is close, and the other unknown keys of the same object", () => {
    expect(catchError(() => parseInput(ConfigurationSchema, { colour: "red" })).message).toBe("colour: unknown key; remove it (valid keys here: steps, seed, trainer, runs)");
    expect(catchError(() => parseInput(ConfigurationSchema, { stepz: 1, sead: 2 })).message).toBe('stepz: unknown key; did you mean "steps"? (unknown here too: sead)');
  });

  it("reports an unknown key before the other problems it may have caused", () => {
    expect(catchError(() => parseInput(ConfigurationSchema, { steps: "many", trainer: { epochz: 2 } })).message).toBe('trainer.epochz: unknown key; did you mean "epochs"?');
  });

  it("leaves other problems as they were", () => {
    const error = catchError(() => parseInput(ConfigurationSchema, { steps: "many" }));
    expect(error).not.toBeInstanceOf(UnknownKeyError);
    expect(error.message).toMatch(/^steps: got "many"; expected /);
  });
});

function catchError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}
