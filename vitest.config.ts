import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Engine tests load GGUF models through node-llama-cpp; two cores cannot run many at once.
    maxWorkers: 2,
    testTimeout: 60_000,
    // An empty configuration folder: no test (nor a CLI it spawns) reads this machine's saved pool default.
    env: { SELFPLAY_CONFIG_DIR: mkdtempSync(join(tmpdir(), "selfplay-test-config-")) },
  },
});
