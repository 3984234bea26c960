import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// An empty configuration folder: no test (nor a CLI it spawns) reads this machine's saved pool default.
const env = { SELFPLAY_CONFIG_DIR: mkdtempSync(join(tmpdir(), "selfplay-test-config-")) };

export default defineConfig({
  test: {
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/device/**"],
          // Engine tests load GGUF models through node-llama-cpp; two cores cannot run many at once.
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
    ],
  },
});
