import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("benchmarks/arena-overhead (quick mode)", () => {
  it("prints one JSON object with its figures", async () => {
    const script = resolve(import.meta.dirname, "../../dist/benchmarks/arena-overhead.js");
    const { stdout } = await promisify(execFile)(process.execPath, [script, "--quick"]);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ benchmark: "arena-overhead", episodes: 64 });
    expect(result.rollouts).toBeGreaterThan(64);
    expect(result.modelCalls).toBe(result.rollouts);
    for (const key of ["seconds", "rolloutsPerSecond", "microsecondsPerModelCall", "heapUsedMiB"]) {
      expect(Number.isFinite(result[key]) && result[key] > 0).toBe(true);
    }
  });
});
