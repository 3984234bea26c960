import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { WasmOutOfMemoryError } from "../../../../src/training/tfjs/errors/index.js";
import { selectBackend } from "../../../../src/training/tfjs/backend/select-backend.js";
import { WASM_HEAP_CEILING_BYTES, checkWasmMemory, isWasmOutOfMemory, withWasmMemoryCheck } from "../../../../src/training/tfjs/backend/wasm-memory.js";

describe("the wasm heap ceiling", () => {
  beforeAll(async () => {
    await selectBackend({ candidates: ["wasm"] });
  });

  it("refuses, before it runs, a task that would not fit in 4 GiB, and says what fits", () => {
    expect(() => checkWasmMemory("loading big.gguf as f32", 1e9)).not.toThrow();
    let error: unknown;
    try {
      checkWasmMemory("loading big.gguf as f32", 7 * 2 ** 30);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WasmOutOfMemoryError);
    expect((error as WasmOutOfMemoryError).ceilingBytes).toBe(WASM_HEAP_CEILING_BYTES);
    expect((error as Error).message).toMatch(
      /^loading big\.gguf as f32 needs 7\.\d\d GiB on the tfjs wasm backend, whose heap stops at 4\.00 GiB: that holds at most ~1\.07 billion f32 parameters/,
    );
    expect((error as Error).message).toMatch(/Install @tensorflow\/tfjs-node or @tensorflow\/tfjs-node-gpu/);
  });

  it("recognises the errors an exhausted wasm heap raises, and wraps them", async () => {
    // What tfjs-wasm threw when a 4.5 GiB allocation was tried: a WebAssembly RuntimeError.
    const exhausted = Object.assign(new Error("memory access out of bounds"), { name: "RuntimeError" });
    expect(isWasmOutOfMemory(exhausted)).toBe(true);
    expect(isWasmOutOfMemory(new Error("shapes do not match"))).toBe(false);
    const wrapped = withWasmMemoryCheck("a forward pass", () => {
      throw exhausted;
    });
    await expect(wrapped).rejects.toBeInstanceOf(WasmOutOfMemoryError);
    await expect(wrapped).rejects.toMatchObject({ cause: exhausted, requiredBytes: undefined });
  });

  it("does not apply to backends that allocate natively", async () => {
    await tf.setBackend("cpu");
    expect(() => checkWasmMemory("anything", 64 * 2 ** 30)).not.toThrow();
    await tf.setBackend("wasm");
  });
});
