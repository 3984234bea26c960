import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { createTrainer } from "../../../src/training/trainer/create-trainer.js";
import { assertBackendTakesThreads, updateThreads } from "../../../src/training/trainer/update-threads.js";
import { train } from "../../../src/training/loop/train.js";

describe("the update's threads", () => {
  it("are the configured count, else every core of the machine", () => {
    expect(updateThreads(3, 16)).toBe(3);
    expect(updateThreads(undefined, 16)).toBe(16);
    expect(updateThreads(undefined)).toBe(availableParallelism());
  });

  it("are refused for the tfjs trainer, which would ignore them, and taken by ggml", () => {
    expect(() => assertBackendTakesThreads("tfjs", 2, "--trainer-threads")).toThrowError(
      new InvalidInputError("--trainer-threads", "no thread count with the tfjs trainer (its wasm backend sets its own): leave it out, or train with --trainer ggml", 2),
    );
    expect(() => assertBackendTakesThreads("tfjs", undefined, "--trainer-threads")).not.toThrow();
    expect(() => assertBackendTakesThreads("ggml", 2, "--trainer-threads")).not.toThrow();
  });

  it("given to the tfjs trainer, refuse it at creation, and train() before any file or model", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-update-threads-"));
    // No model is read: the refusal comes first.
    const modelPath = join(folder, "never-read.gguf");
    await expect(createTrainer("tfjs", { modelPath, configuration: { threads: 2 }, syncDirectory: join(folder, "policies") })).rejects.toThrowError(
      /^configuration\.threads: got 2; expected no thread count with the tfjs trainer/,
    );
    const directory = join(folder, "run");
    const environment = await createExactMatchEnvironment({ prompts: 2, groupSize: 2, maxTokens: 3, evaluateQuestions: 2 });
    await expect(train({ environment, modelPath, directory, trainer: "tfjs", configuration: { trainer: { threads: 2 } } })).rejects.toThrowError(
      /^configuration\.trainer\.threads: got 2; expected no thread count with the tfjs trainer/,
    );
    expect(existsSync(directory)).toBe(false);
    expect(existsSync(join(folder, "policies"))).toBe(false);
  });
});
