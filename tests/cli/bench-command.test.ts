import { describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { poolCells } from "../../src/benchmarks/pool/bench-pool.js";
import { median } from "../../src/benchmarks/pool/measure-pool-cell.js";
import { PoolBenchResultSchema } from "../../src/benchmarks/pool/pool-bench-result.js";
import { RolloutBenchResultSchema } from "../../src/benchmarks/rollout/rollout-bench-result.js";
import { StepBenchResultSchema } from "../../src/benchmarks/step/step-bench-result.js";
import { TrainerBenchResultSchema } from "../../src/benchmarks/trainer/trainer-bench-result.js";
import { main } from "../../src/cli/program.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { nativeAddon, skipNote } from "../inference/native/native-addon-for-tests.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false }, now: () => new Date(0) });
  return { code, stdout, stderr };
}

/** The one JSON line a `--json` run prints, checked against its schema. */
async function benchJson(name: string, ...flags: string[]) {
  const { code, stdout, stderr } = await runCli(["bench", name, "--quick", "--json", ...flags]);
  expect(code, stderr).toBe(0);
  expect(stdout.trim().split("\n")).toHaveLength(1);
  return JSON.parse(stdout) as unknown;
}

// Quick runs load real models (the arena's rollouts decode in the native loop): ~20–40 s each on 2 busy cores.
const QUICK_RUN_MILLISECONDS = 180_000;

describe.skipIf(nativeAddon.binding === undefined)(`selfplay bench (quick)${skipNote}`, () => {
  it("rollout: every cell measured three ways with the same lengths, ratio = ours / llamaCpp or null with the reason", { timeout: QUICK_RUN_MILLISECONDS }, async () => {
    const result = RolloutBenchResultSchema.parse(await benchJson("rollout"));
    expect(result.quick).toBe(true);
    const fixed = result.cells.filter((cell) => cell.shape === "fixed");
    expect(fixed.map((cell) => `${cell.preset}/${cell.threads}/${cell.sequences}/${cell.mode}`)).toEqual(["tiny/1/1/exact", "tiny/1/1/fast", "tiny/1/16/exact", "tiny/1/16/fast"]);
    for (const cell of fixed) expect([cell.promptTokens, cell.generatedTokens]).toEqual([32, 16]);
    const arithmetic = result.cells.filter((cell) => cell.shape === "arithmetic");
    expect(arithmetic.map((cell) => `${cell.preset}/${cell.sequences}/${cell.mode}`)).toEqual(["arithmetic-base/16/exact", "arithmetic-base/16/fast"]);
    for (const cell of result.cells) {
      if (cell.llamaCpp === null) {
        expect(cell.ratio).toBeNull();
        expect(cell.llamaCppReason).toMatch(/^llama-batched-bench: /);
      } else {
        expect(cell.ratio).toBeCloseTo(cell.ours / cell.llamaCpp, 3);
        expect(cell.llamaCppReason).toBeUndefined();
      }
      // The tool on our loop's own library compiles in seconds, so even a quick run has it.
      expect(cell.llamaCppSameLibraryReason).toBeUndefined();
      expect(cell.sameLibraryRatio).toBeCloseTo(cell.ours / (cell.llamaCppSameLibrary ?? Number.NaN), 3);
    }
    // Quick mode measures the tiny model only: the best cell is its fast cell at 1 thread, when llama.cpp ran.
    const bestAt = (sequences: number) => fixed.find((cell) => cell.mode === "fast" && cell.sequences === sequences && cell.llamaCpp !== null) ?? null;
    expect(result.best.oneSequence).toEqual(bestAt(1));
    expect(result.best.sixteenSequences).toEqual(bestAt(16));
    expect(result.best.goalMet).toBe([result.best.oneSequence, result.best.sixteenSequences].every((cell) => (cell?.ratio ?? 0) >= 0.9));
    // The exact arithmetic cell again over two llama-servers when llama-server is built (a quick run never builds it), else null with the reason.
    if (result.fleet === null) {
      expect(result.fleetReason).toMatch(/^llama-server: /);
    } else {
      const inProcess = arithmetic.find((cell) => cell.mode === "exact");
      expect(result.fleetReason).toBeUndefined();
      expect(result.fleet).toMatchObject({ servers: 2, slotsPerServer: 8, threadsPerServer: 1, sequences: 16, inProcess: inProcess?.ours, inProcessThreads: inProcess?.threads });
      expect(result.fleet.ratioToInProcess).toBeCloseTo(result.fleet.ours / result.fleet.inProcess, 3);
      expect(result.fleet.sameThreadsRatio).toBeCloseTo(result.fleet.ours / result.fleet.inProcessSameThreads, 3);
    }
  });

  it("trainer: tokens/s per tfjs backend (wasm at least) and of the ggml trainer, weight-sync seconds, llama-finetune or the reason it is missing", { timeout: QUICK_RUN_MILLISECONDS }, async () => {
    const result = TrainerBenchResultSchema.parse(await benchJson("trainer"));
    expect(result).toMatchObject({ quick: true, preset: "tiny", weights: "full", weightType: "f32", sequenceLength: 256 });
    expect(result.peakRssBytes).toBeGreaterThan(0);
    expect(result.backends.map((entry) => entry.backend)).toEqual(["tensorflow", "wasm", "cpu", "ggml"]);
    expect(result.backends.find((entry) => entry.backend === "ggml")).toMatchObject({ threads: 1, entropy: false });
    for (const entry of result.backends) expect(entry.tokensPerSecond === null).toBe(entry.reason !== undefined);
    expect(result.backends.find((entry) => entry.backend === "wasm")?.tokensPerSecond).toBeGreaterThan(0);
    expect(result.weightSync.seconds).toBeCloseTo(result.weightSync.exportSeconds + result.weightSync.swapSeconds, 9);
    expect(result.llamaCpp.map((entry) => entry.threads)).toEqual([1]);
    for (const entry of result.llamaCpp) expect(entry.tokensPerSecond === null ? entry.reason : "measured").toMatch(/^(llama-finetune: |measured$)/);
    expect(result.ratio === null).toBe(result.llamaCpp.every((entry) => entry.tokensPerSecond === null));
  });

  it("step: one RL step of the arithmetic environment cut to 4 proposals, `selfplay train`'s defaults otherwise, whose phases add up to its total", { timeout: QUICK_RUN_MILLISECONDS }, async () => {
    const result = StepBenchResultSchema.parse(await benchJson("step"));
    expect(result).toMatchObject({ quick: true, environment: "arithmetic", plan: [{ episodeType: "arithmetic-propose", count: 4 }], trainer: "tfjs", sequences: 16 });
    expect(result.model).toMatch(/selfplay-arithmetic-base\.gguf$/);
    const [step] = result.steps;
    expect(result.steps).toHaveLength(1);
    const phases = (step?.rolloutSeconds ?? 0) + (step?.scoringSeconds ?? 0) + (step?.creditSeconds ?? 0) + (step?.updateSeconds ?? 0) + (step?.syncSeconds ?? 0);
    expect(phases).toBeCloseTo(step?.totalSeconds ?? -1, 9);
    expect(step?.rollouts).toBeGreaterThanOrEqual(4);
    expect(step?.completionTokens).toBeGreaterThan(0);
  });
});

describe("selfplay bench step --env (quick)", () => {
  it("times a step of another environment: exact-match's questions in groups of 8", { timeout: QUICK_RUN_MILLISECONDS }, async () => {
    const result = StepBenchResultSchema.parse(await benchJson("step", "--env", "exact-match"));
    expect(result).toMatchObject({ environment: "exact-match", plan: [{ episodeType: "dataset", count: 4, groupSize: 8 }], trainer: "tfjs" });
    expect(result.steps[0]?.rollouts).toBe(32);
  });
});

describe("selfplay bench pool (quick)", () => {
  it("measures every pool setting on the same batches and names the fastest by median rollouts/s", { timeout: QUICK_RUN_MILLISECONDS }, async () => {
    const result = PoolBenchResultSchema.parse(await benchJson("pool"));
    expect(result).toMatchObject({ benchmark: "pool", quick: true, proposals: 2, solvers: 2, sequences: 16 });
    expect(result.model).toMatch(/selfplay-arithmetic-base\.gguf$/);
    expect(result.machine.cores).toBe(availableParallelism());
    expect(result.cells.map(({ workers, engine }) => ({ workers, engine }))).toEqual(poolCells(availableParallelism()));
    for (const cell of result.cells) {
      expect(cell.rounds).toHaveLength(3);
      expect(cell.rolloutsPerSecond).toBe(median(cell.rounds.map((round) => round.rolloutsPerSecond)));
      expect(cell.tokensPerSecond).toBe(median(cell.rounds.map((round) => round.tokensPerSecond)));
      expect(cell.threads).toBe(cell.engine === "per-worker" ? Math.max(1, Math.floor(availableParallelism() / cell.workers)) : 1);
      for (const round of cell.rounds) expect(round.rolloutsPerSecond).toBeCloseTo(round.rollouts / round.seconds, 6);
    }
    // Round k is the same batch in every cell: the same episodes, whatever runs them.
    const rollouts = (index: number) => result.cells.map((cell) => cell.rounds[index]?.rollouts);
    for (const index of [0, 1, 2]) expect(new Set(rollouts(index)).size).toBe(1);
    const fastest = Math.max(...result.cells.map((cell) => cell.rolloutsPerSecond));
    expect(result.cells.find((cell) => cell.workers === result.best.workers && cell.engine === result.best.engine)?.rolloutsPerSecond).toBe(fastest);
  });
});

describe.skipIf(nativeAddon.binding === undefined)(`selfplay bench trainer --model / --preset (quick)${skipNote}`, () => {
  it.each([
    [[], 1],
    [["--threads", "2"], 2],
  ])(
    "--model FILE %j trains a rank-16 LoRA over the file on ggml at %i thread(s), entropy off and on, against the engine's forward: tokens/s, ratio, gradient norm, peak RSS, adapter sync",
    { timeout: QUICK_RUN_MILLISECONDS },
    async (flags, threadCount) => {
      const folder = await mkdtemp(join(tmpdir(), "selfplay-bench-trainer-model-"));
      try {
        // The real-size preset's recipe (qwen2, q8_0 matrices) at the tiny size; the 0.5B run is a benchmark, not a test.
        const { path } = await createRandomModel({ path: join(folder, "tiny-q8.gguf"), preset: "tiny", architecture: "qwen2", weightType: "q8_0", seed: 0 });
        const result = TrainerBenchResultSchema.parse(await benchJson("trainer", "--model", path, ...flags));
        expect(result).toMatchObject({ quick: true, preset: null, model: path, weights: "lora", weightType: "q8_0", sequenceLength: 256, llamaCpp: [], ratio: null });
        // Seven projections in each of the 2 blocks.
        expect(result.lora).toEqual({ rank: 16, alpha: 32, pairs: 14 });
        expect(result.backends.map(({ backend, threads, entropy }) => ({ backend, threads, entropy }))).toEqual([
          { backend: "ggml", threads: threadCount, entropy: false },
          { backend: "ggml", threads: threadCount, entropy: true },
        ]);
        for (const cell of result.backends) {
          expect(cell.tokensPerSecond).toBeGreaterThan(0);
          expect(cell.gradientNorm).toBeGreaterThan(0);
          expect(cell.engineForwardTokensPerSecond).toBeGreaterThan(0);
          expect(cell.forwardRatio).toBeCloseTo((cell.tokensPerSecond ?? Number.NaN) / (cell.engineForwardTokensPerSecond ?? Number.NaN), 3);
        }
        // One engine figure per thread count, whatever the trainer computed.
        expect(result.backends[0]?.engineForwardTokensPerSecond).toBe(result.backends[1]?.engineForwardTokensPerSecond);
        // The same steps from the same adapter: the entropy bonus is all that changes the gradient.
        expect(result.backends[0]?.gradientNorm).not.toBe(result.backends[1]?.gradientNorm);
        expect(result.peakRssBytes).toBeGreaterThan(0);
        expect(result.weightSync.format).toBe("adapter");
        expect(result.weightSync.seconds).toBeCloseTo(result.weightSync.exportSeconds + result.weightSync.swapSeconds, 9);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  );
});

describe("selfplay bench flags", () => {
  it.each([
    [["bench", "rollout", "--bogus"], /unknown option '--bogus'/],
    [["bench", "trainer", "--quick", "--threads", "0"], /--threads: got "0"; expected an integer from 1 to 1024/],
    [["bench", "trainer", "--quick", "--threads", "1.5"], /--threads: got "1.5"; expected an integer from 1 to 1024/],
    [["bench", "trainer", "--quick", "--threads", "two"], /--threads: got "two"; expected an integer from 1 to 1024/],
    [["bench", "rollout", "--threads", "2"], /--threads: got 2; expected used with --model/],
    [["bench", "rollout", "--model", "x.gguf", "--threads", "0"], /--threads: got "0"; expected an integer from 1 to 1024/],
    [["bench", "nope"], /unknown command 'nope'/],
    [["bench", "rollout", "--save"], /unknown option '--save'/],
    [["bench", "pool", "--quick", "--save"], /--save: got true; expected a full run \(no --quick\)/],
    [["bench", "trainer", "--quick", "--preset", "huge"], /--preset: .*one of: tiny, small, medium, qwen2-0.5b/],
    [["bench", "trainer", "--quick", "--preset", "tiny", "--model", "x.gguf"], /--preset: got "tiny"; expected either --preset or --model, not both/],
    [["bench", "rollout", "--preset", "tiny"], /unknown option '--preset'/],
  ])("rejects %j with exit code 2 before measuring anything", async (argv, message) => {
    const { code, stdout, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe("");
  });
});
