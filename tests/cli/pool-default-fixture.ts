import type { PoolBenchResult } from "../../src/benchmarks/pool/pool-bench-result.js";

/** A full-run result in which 2 shared workers were fastest. */
export function poolBenchResult(best: PoolBenchResult["best"] = { workers: 2, engine: "shared" }): PoolBenchResult {
  const round = (rolloutsPerSecond: number) => ({ seconds: 2, rollouts: 2 * rolloutsPerSecond, completionTokens: 10 * rolloutsPerSecond, rolloutsPerSecond, tokensPerSecond: 5 * rolloutsPerSecond });
  const cell = (workers: number, engine: "shared" | "per-worker", rolloutsPerSecond: number) => ({
    workers,
    engine,
    threads: 1,
    rolloutsPerSecond,
    tokensPerSecond: 5 * rolloutsPerSecond,
    rounds: [round(rolloutsPerSecond), round(rolloutsPerSecond + 1), round(rolloutsPerSecond - 1)],
  });
  return {
    benchmark: "pool",
    quick: false,
    model: "/models/selfplay-arithmetic-base.gguf",
    proposals: 32,
    solvers: 8,
    sequences: 16,
    cells: [cell(0, "shared", 100), cell(1, "shared", 90), cell(2, "shared", 120), cell(2, "per-worker", 80)],
    best,
    machine: { cores: 2, cpuModel: "test CPU", platform: "linux", arch: "x64", loadAverage: [1, 2, 3] },
  };
}

/** The content of a valid pool-default.json (written on 2026-11-21) choosing `best`. */
export function poolDefaultFile(best: PoolBenchResult["best"] = { workers: 2, engine: "shared" }) {
  const cell = poolBenchResult(best).cells.find((entry) => entry.workers === best.workers && entry.engine === best.engine);
  return { version: 1, ...best, rolloutsPerSecond: cell?.rolloutsPerSecond ?? 1, tokensPerSecond: cell?.tokensPerSecond ?? 1, savedAt: "2026-11-21T21:30:00.000Z", measurement: poolBenchResult(best) };
}
