import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { defineConfig } from "vitest/config";

// An empty configuration folder: no test (nor a CLI it spawns) reads this machine's saved pool default.
const env = { SELFPLAY_CONFIG_DIR: mkdtempSync(join(tmpdir(), "selfplay-test-config-")) };

/**
 * What opens a GGUF model: the engine's clients, the trainers, the bundled or default model, the CLI commands that
 * load one (train, generate, eval, pretrain, check-logprobs, dialectic, riddles, dream, bench, run on the real engine).
 */
const LOADS_A_MODEL =
  /LlamaInferenceClient|WorkerEngineClient|NativeEngine|createRandomModel|\btrain\(|trainAndResume|killCliRunWhen|bundledArithmeticBase|ensureDefaultModel|GgmlPolicy|GgmlTrainer|TfjsTrainer|createTrainer|Policy\.load|checkLogprobs|timeForward|"--model"|runCli\(\["(train|generate|eval|pretrain|check-logprobs|dialectic|riddles|dream|bench)"|spawnSync\(process\.execPath|spawnSync\("npx"/;

/** A test file's text and that of the test helpers it imports (one level), where a model load may hide. */
function textWithHelpers(file: string): string {
  const text = readFileSync(file, "utf8");
  const helpers = [...text.matchAll(/from "(\.[^"]+)"/g)]
    .map((match) => resolve(dirname(file), (match[1] as string).replace(/\.js$/, ".ts")))
    .filter((path) => relative("tests", path).startsWith("..") === false && !path.endsWith(".test.ts") && existsSync(path));
  return [text, ...helpers.map((path) => readFileSync(path, "utf8"))].join("\n");
}

const suiteFiles = readdirSync("tests", { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts") && !file.startsWith("device/") && !file.startsWith("fleet/") && !file.startsWith("real/"))
  .map((file) => join("tests", file));
/** The suite's files that load a model: the `engine` project; the rest are `fast`. */
const engineFiles = suiteFiles.filter((file) => LOADS_A_MODEL.test(textWithHelpers(file)));

export default defineConfig({
  test: {
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          // No model: the contracts, the systems' logic, schemas, parsers, the CLI's flag handling. Runs in a minute or two.
          name: "fast",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/device/**", "tests/fleet/**", "tests/real/**", ...engineFiles],
          maxWorkers: 2,
          env,
        },
      },
      {
        extends: true,
        test: {
          // Each file loads a GGUF model through node-llama-cpp or the native addon; two cores cannot run many at once.
          name: "engine",
          include: engineFiles,
          maxWorkers: 2,
          env,
        },
      },
      {
        extends: true,
        test: {
          // The engine and the trainer on a non-CPU ggml device: Vulkan, through Mesa's CPU driver (llvmpipe) where
          // there is no GPU. Only this project sees the CPU-type Vulkan device (ggml lists it when this variable names
          // it); the suite's "auto" stays on the CPU. One process for every file: ggml-vulkan compiles each pipeline on
          // its first use in a process.
          name: "device",
          include: ["tests/device/**/*.test.ts"],
          maxWorkers: 1,
          isolate: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
          env: { ...env, GGML_VK_VISIBLE_DEVICES: "0" },
        },
      },
      {
        extends: true,
        test: {
          // llama-server processes on 127.0.0.1 serving a project-made model: the OpenAI-compatible client, its fleet
          // and weight updates. The global setup builds llama-server into the user's cache when it is not there.
          name: "fleet",
          include: ["tests/fleet/**/*.test.ts"],
          globalSetup: ["tests/fleet/build-llama-server.ts"],
          maxWorkers: 1,
          testTimeout: 300_000,
          hookTimeout: 300_000,
          env,
        },
      },
      {
        extends: true,
        test: {
          // A pretrained model someone else made: SmolLM2-135M-Instruct (Q4_1, a real BPE vocabulary and chat template)
          // through the engine, the chat path, the trainer and the exports. Files mirror src/ under tests/real/.
          name: "real",
          include: ["tests/real/**/*.test.ts"],
          globalSetup: ["tests/real/fetch-real-model.ts"],
          // One file at a time: SmolLM2's decode (≥ 100M parameters) and the trainer's update each take every core.
          maxWorkers: 1,
          testTimeout: 300_000,
          hookTimeout: 300_000,
          env,
        },
      },
    ],
  },
});
