import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidInputError } from "../../core/errors/index.js";
import { LlamaCppToolError } from "../errors/index.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import { createRandomModel } from "../../inference/model-files/create-random-model.js";
import { MODEL_PRESETS, type ModelPresetName } from "../../inference/model-files/model-presets.js";
import { createTrainableAdapter } from "../../training/tfjs/lora/create-trainable-adapter.js";
import { readPolicyConfiguration } from "../../training/tfjs/policy/read-policy-configuration.js";
import { TfjsBackendNameSchema } from "../../training/tfjs/backend/select-backend.js";
import { findLlamaCppTool } from "../llama-cpp/find-llama-cpp-tool.js";
import { runFinetune } from "../llama-cpp/run-finetune.js";
import { measureAdapterSync } from "./measure-adapter-sync.js";
import { measureEngineForward, type EngineForwardMeasurement } from "./measure-engine-forward.js";
import { measureGgmlTraining, trainingRow, type GgmlTrainingMeasurement } from "./measure-ggml-training.js";
import { measureTfjsTraining } from "./measure-tfjs-training.js";
import { measureWeightSync } from "./measure-weight-sync.js";
import type { TrainerBenchResult } from "./trainer-bench-result.js";
import { trainingText } from "./training-text.js";
import { trainingTokens } from "./training-tokens.js";

export interface TrainerBenchOptions {
  /** Small sizes (tiny model, few steps) for a CI check of the output; the full run uses the medium model. */
  quick: boolean;
  /** Build llama-finetune when it is not built yet (minutes); when false it is reported missing instead. */
  buildTools: boolean;
  /**
   * The project-made model trained (`--preset`). Default: tiny with `quick`, else medium.
   * Byte-vocabulary presets train every weight of an f32 llama file on each backend, against llama-finetune;
   * `qwen2-0.5b` (a q8_0 qwen2 file) trains a LoRA on ggml alone (`LORA_BENCH`).
   */
  preset?: ModelPresetName;
  /** A model file of one's own (`--model`, any type llama.cpp reads): a LoRA trains over it on ggml, on text in its own vocabulary. Not with `preset`. */
  modelPath?: string;
  /** CPU threads of every threaded measurement (ggml, the engine's forward, llama-finetune), an integer ≥ 1 (`--threads`). Default 1 and 2; 1 with `quick`. */
  threads?: number;
}

/** What a real-size benchmark trains: a rank-16 adapter over every block projection, on 512-token sequences (shorter when the model's context is). */
export const LORA_BENCH = { rank: 16, alpha: 32, sequenceLength: 512, weightType: "q8_0" } as const;

/** Warm runs of the engine's forward pass the median is taken over (after one untimed run). */
const ENGINE_FORWARD_RUNS = 3;

/** Timed optimizer steps per tfjs backend: the plain-JavaScript cpu backend is ~20× slower than wasm. */
const STEPS = { full: { tensorflow: 6, wasm: 6, cpu: 1 }, quick: { tensorflow: 2, wasm: 2, cpu: 1 } } as const;

/**
 * Training throughput of our tfjs trainer on each backend and of llama.cpp's
 * llama-finetune on the same model, text and sequence length, plus the
 * weight-sync time of a training step.
 */
export async function benchTrainer(options: TrainerBenchOptions): Promise<TrainerBenchResult> {
  if (options.preset !== undefined && options.modelPath !== undefined) throw new InvalidInputError("--preset", "either --preset or --model, not both", options.preset);
  const preset = options.modelPath !== undefined ? undefined : (options.preset ?? (options.quick ? "tiny" : "medium"));
  if (options.threads !== undefined && !(Number.isInteger(options.threads) && options.threads >= 1)) throw new InvalidInputError("--threads", "an integer ≥ 1", options.threads);
  const threadCounts = options.threads !== undefined ? [options.threads] : options.quick ? [1] : [1, 2];
  const folder = await mkdtemp(join(tmpdir(), "selfplay-bench-trainer-"));
  try {
    if (preset === undefined || MODEL_PRESETS[preset].vocabularySize !== undefined) return await benchLora(options, preset, folder, threadCounts);
    const sequenceLength = MODEL_PRESETS[preset].contextLength;
    const model = await createRandomModel({ path: join(folder, `${preset}.gguf`), preset, architecture: "llama", seed: 0 });
    const steps = options.quick ? STEPS.quick : STEPS.full;
    const text = trainingText(sequenceLength * (Math.max(...Object.values(steps)) + 2) + 1);
    const tokens = await trainingTokens(model.path, text.length);
    const backends: TrainerBenchResult["backends"] = [];
    for (const backend of TfjsBackendNameSchema.options) {
      backends.push(await measureTfjsTraining({ modelPath: model.path, backend, text, sequenceLength, sequencesPerStep: 1, steps: steps[backend] }));
    }
    for (const threads of threadCounts) {
      backends.push(await measureGgmlTraining({ modelPath: model.path, threads, tokens, sequenceLength, sequencesPerStep: 1, steps: steps.wasm, entropy: false }));
    }
    const weightSync = await measureWeightSync(model.path, 3);
    const llamaCpp: TrainerBenchResult["llamaCpp"] = [];
    for (const threads of threadCounts) {
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
      weights: "full",
      weightType: "f32",
      parameters: model.parameterCount,
      sequenceLength,
      backends,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      weightSync,
      llamaCpp,
      ratio: ours > 0 && theirs > 0 ? Number((ours / theirs).toFixed(3)) : null,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A LoRA (LORA_BENCH) over a frozen base on the ggml trainer, one sequence per
 * AdamW step, at each thread count with entropy off and on (each cell from the
 * fresh adapter: the same steps, so entropy off gives the same gradient norm
 * however many cells run): tokens/s against the engine's own forward pass over
 * the same tokens at the same threads, the process's peak RSS after training
 * (file creation included), and the adapter sync. tfjs and llama-finetune
 * cannot train such a model here, so they are not run.
 */
async function benchLora(options: TrainerBenchOptions, preset: ModelPresetName | undefined, folder: string, threadCounts: readonly number[]): Promise<TrainerBenchResult> {
  let modelPath: string;
  if (preset === undefined) {
    modelPath = options.modelPath as string;
  } else {
    modelPath = (await createRandomModel({ path: join(folder, `${preset}.gguf`), preset, architecture: "qwen2", weightType: LORA_BENCH.weightType, seed: 0 })).path;
  }
  const { configuration, parameters, weightType } = await describeModel(modelPath);
  const sequenceLength = Math.min(LORA_BENCH.sequenceLength, configuration.contextLength);
  const loraPath = join(folder, "bench.lora.gguf");
  const adapter = await createTrainableAdapter({ modelPath, path: loraPath, rank: LORA_BENCH.rank, alpha: LORA_BENCH.alpha });
  const steps = options.quick ? 1 : 2;
  const tokens = await trainingTokens(modelPath, sequenceLength * (steps + 2) + 1);
  const cells: GgmlTrainingMeasurement[] = [];
  for (const threads of threadCounts) {
    for (const entropy of [false, true]) cells.push(await measureGgmlTraining({ modelPath, loraPath, threads, tokens, sequenceLength, sequencesPerStep: 1, steps, entropy }));
  }
  // The trainer's peak: the engine measured below holds its own copy of the model and a logits buffer of every position.
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  const trained = cells.some((cell) => cell.tokensPerSecond !== null);
  // The row the first timed step trains on: the engine decodes exactly what the trainer's forward reads.
  const row = trainingRow(tokens, 1, sequenceLength);
  const engine = new Map<number, EngineForwardMeasurement>();
  for (const threads of threadCounts) {
    engine.set(threads, trained ? await measureEngineForward({ modelPath, tokens: row, threads, runs: ENGINE_FORWARD_RUNS }) : { tokensPerSecond: null, reason: "the trainer did not run" });
  }
  const backends = cells.map((cell) => {
    const forward = engine.get(cell.threads) as EngineForwardMeasurement;
    const ratio = cell.tokensPerSecond !== null && forward.tokensPerSecond !== null ? Number((cell.tokensPerSecond / forward.tokensPerSecond).toFixed(3)) : null;
    return { ...cell, engineForwardTokensPerSecond: forward.tokensPerSecond, ...(forward.reason !== undefined && { engineForwardReason: forward.reason }), forwardRatio: ratio };
  });
  const weightSync = !trained ? { format: "adapter" as const, exportSeconds: 0, swapSeconds: 0, seconds: 0 } : await measureAdapterSync(modelPath, loraPath, options.quick ? 1 : 2);
  return {
    benchmark: "trainer",
    quick: options.quick,
    preset: preset ?? null,
    ...(preset === undefined && { model: modelPath }),
    weights: "lora",
    lora: { rank: LORA_BENCH.rank, alpha: LORA_BENCH.alpha, pairs: adapter.baseTensorNames.length },
    weightType,
    parameters,
    sequenceLength,
    backends,
    peakRssBytes,
    weightSync,
    llamaCpp: [],
    ratio: null,
  };
}

/** The model's shape, stored parameter count and the type of its matrices (the commonest type among 2-D tensors). */
async function describeModel(modelPath: string) {
  const reader = await GgufReader.open(modelPath);
  try {
    const configuration = readPolicyConfiguration(reader);
    const parameters = reader.tensors.reduce((sum, tensor) => sum + tensor.elementCount, 0);
    const counts = new Map<string, number>();
    for (const tensor of reader.tensors) if (tensor.dims.length === 2) counts.set(tensor.type, (counts.get(tensor.type) ?? 0) + 1);
    const weightType = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "f32";
    return { configuration, parameters, weightType };
  } finally {
    await reader.close();
  }
}
