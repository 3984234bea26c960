import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LlamaCppToolError } from "../../src/core/errors.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { MODEL_PRESETS } from "../../src/inference/model-files/model-presets.js";
import { TfjsBackendNameSchema } from "../../trainers/backend/select-backend.js";
import { findLlamaCppTool } from "../llama-cpp/find-llama-cpp-tool.js";
import { runFinetune } from "../llama-cpp/run-finetune.js";
import { measureGgmlTraining } from "./measure-ggml-training.js";
import { measureTfjsTraining } from "./measure-tfjs-training.js";
import { measureWeightSync } from "./measure-weight-sync.js";
import type { TrainerBenchResult } from "./trainer-bench-result.js";
import { trainingText } from "./training-text.js";

export interface TrainerBenchOptions {
  /** Small sizes (tiny model, few steps) for a CI check of the output; the full run uses the medium model. */
  quick: boolean;
  /** Build llama-finetune when it is not built yet (minutes); when false it is reported missing instead. */
  buildTools: boolean;
}

/** Timed optimizer steps per tfjs backend: the plain-JavaScript cpu backend is ~20× slower than wasm. */
const STEPS = { full: { tensorflow: 6, wasm: 6, cpu: 1 }, quick: { tensorflow: 2, wasm: 2, cpu: 1 } } as const;

/**
 * Training throughput of our tfjs trainer on each backend and of llama.cpp's
 * llama-finetune on the same model, text and sequence length, plus the
 * weight-sync time of a training step.
 */
export async function benchTrainer(options: TrainerBenchOptions): Promise<TrainerBenchResult> {
  const preset = options.quick ? "tiny" : "medium";
  const sequenceLength = MODEL_PRESETS[preset].contextLength;
  const folder = await mkdtemp(join(tmpdir(), "selfplay-bench-trainer-"));
  try {
    const model = await createRandomModel({ path: join(folder, `${preset}.gguf`), preset, architecture: "llama", seed: 0 });
    const steps = options.quick ? STEPS.quick : STEPS.full;
    const text = trainingText(sequenceLength * (Math.max(...Object.values(steps)) + 2) + 1);
    const backends: TrainerBenchResult["backends"] = [];
    for (const backend of TfjsBackendNameSchema.options) {
      backends.push(await measureTfjsTraining({ modelPath: model.path, backend, text, sequenceLength, sequencesPerStep: 1, steps: steps[backend] }));
    }
    for (const threads of options.quick ? [1] : [1, 2]) {
      backends.push(await measureGgmlTraining({ modelPath: model.path, threads, text, sequenceLength, sequencesPerStep: 1, steps: steps.wasm }));
    }
    const weightSync = await measureWeightSync(model.path, 3);
    const llamaCpp: TrainerBenchResult["llamaCpp"] = [];
    for (const threads of options.quick ? [1] : [1, 2]) {
      try {
        const toolPath = await findLlamaCppTool("llama-finetune", { build: options.buildTools });
        const tokensPerSecond = await runFinetune({ toolPath, modelPath: model.path, contextLength: sequenceLength, threads, sequences: options.quick ? 4 : 20, text: trainingText });
        llamaCpp.push({ threads, tokensPerSecond: Math.round(tokensPerSecond) });
      } catch (error) {
        if (!(error instanceof LlamaCppToolError)) throw error;
        llamaCpp.push({ threads, tokensPerSecond: null, reason: error.message });
      }
    }
    const best = (figures: ReadonlyArray<{ tokensPerSecond: number | null }>) => Math.max(0, ...figures.map((figure) => figure.tokensPerSecond ?? 0));
    const ours = best(backends);
    const theirs = best(llamaCpp);
    return {
      benchmark: "trainer",
      quick: options.quick,
      preset,
      parameters: model.parameterCount,
      sequenceLength,
      backends,
      weightSync,
      llamaCpp,
      ratio: ours > 0 && theirs > 0 ? Number((ours / theirs).toFixed(3)) : null,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
