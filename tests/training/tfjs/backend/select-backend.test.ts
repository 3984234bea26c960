import * as tf from "@tensorflow/tfjs";
import { describe, expect, it } from "vitest";
import { describeBackendSelection, selectBackend } from "../../../../src/training/tfjs/backend/select-backend.js";

describe("selectBackend", () => {
  it("uses the native backend when its binary loads, else falls back to wasm and says why", async () => {
    const selection = await selectBackend();
    expect(tf.getBackend()).toBe(selection.backend);
    if (selection.backend === "wasm") {
      // @tensorflow/tfjs-node(-gpu) are optional peers this checkout does not install (or, installed offline, lack their binary).
      expect(selection.rejected.map((entry) => entry.package)).toEqual(["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node"]);
      for (const entry of selection.rejected) expect(entry.reason).toMatch(/tfjs_binding\.node|^not installed \(an optional peer dependency: npm install @tensorflow\/tfjs-node/);
      expect(describeBackendSelection(selection)).toMatch(/^wasm \(@tensorflow\/tfjs-backend-wasm\); not @tensorflow\/tfjs-node-gpu: /);
    } else {
      expect(selection).toMatchObject({ backend: "tensorflow" });
    }
  });

  it("falls back to cpu when no backend package loads, recording each failure", async () => {
    const attempted: string[] = [];
    const selection = await selectBackend({
      importPackage: async (name) => {
        attempted.push(name);
        throw new Error(`cannot load ${name}\nsecond line`);
      },
    });
    expect(attempted).toEqual(["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node", "@tensorflow/tfjs-backend-wasm"]);
    expect(selection).toEqual({
      backend: "cpu",
      package: "@tensorflow/tfjs",
      rejected: attempted.map((name, index) => ({ backend: index < 2 ? "tensorflow" : "wasm", package: name, reason: `cannot load ${name}` })),
    });
    expect(tf.getBackend()).toBe("cpu");
  });

  it("tries only the candidates asked for, and names them when none starts", async () => {
    expect((await selectBackend({ candidates: ["wasm"] })).backend).toBe("wasm");
    await expect(selectBackend({ candidates: ["tensorflow"], importPackage: () => Promise.reject(new Error("no binary")) })).rejects.toThrow(
      /candidates: got \["tensorflow"\]; expected a list with a backend that starts \(@tensorflow\/tfjs-node-gpu: no binary; @tensorflow\/tfjs-node: no binary\)/,
    );
  });
});
