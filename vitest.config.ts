import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Engine tests load GGUF models through node-llama-cpp; two cores cannot run many at once.
    maxWorkers: 2,
    testTimeout: 60_000,
  },
});
