// Logprob agreement: llama.cpp samples in exact mode (f32 KV cache, untruncated
// sampler); the tfjs policy recomputes every sampled token's logprob. Figures per
// model type, and the policy's speed on the selected tfjs backend.
//
//   npm run build && node dist/benchmarks/logprob-agreement.js [--preset medium] [--tokens 2000] [--scale 0.02]
//     [--cases llama-f32,qwen2-f32,llama-f32-lora,llama-f16,llama-q8_0] [--speed-backends wasm,cpu] [--quick]   (prints JSON)
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as tf from "@tensorflow/tfjs";
import type { GgufWritableType } from "../src/gguf/encode-tensor-data.js";
import { createRandomLoraAdapter } from "../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../src/inference/model-files/create-random-model.js";
import type { ModelArchitecture } from "../src/inference/model-files/model-architecture.js";
import type { ModelPresetName } from "../src/inference/model-files/model-presets.js";
import type { TfjsBackendName } from "../src/training/tfjs/backend/select-backend.js";
import { checkLogprobs, type CheckLogprobsResult } from "../src/training/tfjs/check-logprobs.js";
import { Policy } from "../src/training/tfjs/policy/policy.js";

export interface LogprobAgreementOptions {
  preset: ModelPresetName;
  /** Completion tokens sampled per case, at least. */
  tokens: number;
  /** Standard deviation of the random weights; larger gives sharper distributions. */
  initialisationScale: number;
  /** Which cases to run; default all five. */
  cases?: readonly string[];
  /** Backends to measure the policy's speed on; default the one `selectBackend` picks. */
  speedBackends?: readonly TfjsBackendName[];
}

interface AgreementCase {
  name: string;
  architecture: ModelArchitecture;
  weightType: GgufWritableType;
  lora: boolean;
}

const CASES: readonly AgreementCase[] = [
  { name: "llama-f32", architecture: "llama", weightType: "f32", lora: false },
  { name: "qwen2-f32", architecture: "qwen2", weightType: "f32", lora: false },
  { name: "llama-f32-lora", architecture: "llama", weightType: "f32", lora: true },
  { name: "llama-f16", architecture: "llama", weightType: "f16", lora: false },
  { name: "llama-q8_0", architecture: "llama", weightType: "q8_0", lora: false },
];

export interface PolicySpeed {
  backend: string;
  sequences: number;
  tokensPerSequence: number;
  /** Tokens through a forward pass (logprobs of every position) per second. */
  forwardTokensPerSecond: number;
  /** Tokens through forward and backward (gradients of all trainable variables) per second. */
  forwardBackwardTokensPerSecond: number;
}

export interface LogprobAgreementResult {
  benchmark: "logprob-agreement";
  preset: ModelPresetName;
  initialisationScale: number;
  cases: Array<{ case: string } & Omit<CheckLogprobsResult, "modelPath" | "loraPath" | "backend">>;
  backend: string;
  speed: PolicySpeed[];
}

export async function measureLogprobAgreement(options: LogprobAgreementOptions): Promise<LogprobAgreementResult> {
  const folder = await mkdtemp(join(tmpdir(), "selfplay-logprob-agreement-"));
  try {
    const cases: LogprobAgreementResult["cases"] = [];
    let backend = "";
    for (const agreementCase of CASES.filter((entry) => options.cases?.includes(entry.name) ?? true)) {
      const { path } = await createRandomModel({
        path: join(folder, `${agreementCase.name}.gguf`),
        preset: options.preset,
        architecture: agreementCase.architecture,
        weightType: agreementCase.weightType,
        initialisationScale: options.initialisationScale,
        seed: 1,
      });
      // Rank 8 on every attention and feed-forward matrix, alpha 16, B not zero.
      const loraPath = agreementCase.lora
        ? (await createRandomLoraAdapter({ baseModelPath: path, path: join(folder, `${agreementCase.name}-adapter.gguf`), rank: 8, alpha: 16, seed: 1 })).path
        : undefined;
      const { modelPath: _model, loraPath: _lora, backend: caseBackend, ...figures } = await checkLogprobs({ modelPath: path, loraPath, tokens: options.tokens, sequences: 4, seed: 1 });
      backend = caseBackend;
      cases.push({ case: agreementCase.name, ...figures });
    }
    const { path } = await createRandomModel({ path: join(folder, "speed.gguf"), preset: options.preset, architecture: "llama", seed: 2 });
    const speed: PolicySpeed[] = [];
    for (const speedBackend of options.speedBackends ?? [undefined]) speed.push(await measureSpeed(path, speedBackend));
    return { benchmark: "logprob-agreement", preset: options.preset, initialisationScale: options.initialisationScale, cases, backend, speed };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Forward and forward+backward throughput over 4 sequences filling the model's context. */
async function measureSpeed(modelPath: string, backend: TfjsBackendName | undefined): Promise<PolicySpeed> {
  const policy = await Policy.load({ modelPath, backends: backend === undefined ? undefined : [backend] });
  try {
    const sequences = 4;
    const tokensPerSequence = policy.configuration.contextLength;
    const batch = Array.from({ length: sequences }, (_, row) => ({
      promptTokenIds: [1],
      completionTokenIds: Array.from({ length: tokensPerSequence - 1 }, (_, index) => 3 + ((index * 31 + row * 17) % 256)),
      temperature: 1,
    }));
    const time = async (run: () => void): Promise<number> => {
      run();
      const repeats = 3;
      const started = performance.now();
      for (let repeat = 0; repeat < repeats; repeat++) run();
      return (performance.now() - started) / 1000 / repeats;
    };
    const forward = await time(() => tf.tidy(() => void policy.completionLogprobs(batch, { withGradients: false }).dataSync()));
    const forwardBackward = await time(() =>
      tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => tf.sum(policy.completionLogprobs(batch)) as tf.Scalar, policy.trainableVariables);
        value.dataSync();
        for (const gradient of Object.values(grads)) gradient.dataSync();
      }),
    );
    const tokens = sequences * tokensPerSequence;
    return {
      backend: policy.backend.backend,
      sequences,
      tokensPerSequence,
      forwardTokensPerSecond: tokens / forward,
      forwardBackwardTokensPerSecond: tokens / forwardBackward,
    };
  } finally {
    policy.dispose();
  }
}

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const quick = process.argv.includes("--quick");
  const result = await measureLogprobAgreement({
    preset: (flag("preset") ?? (quick ? "tiny" : "medium")) as ModelPresetName,
    tokens: Number(flag("tokens") ?? (quick ? 200 : 2000)),
    initialisationScale: Number(flag("scale") ?? 0.02),
    cases: quick ? ["llama-f32", "llama-q8_0"] : flag("cases")?.split(","),
    speedBackends: flag("speed-backends")?.split(",") as TfjsBackendName[] | undefined,
  });
  console.log(JSON.stringify(result));
}
