// Sandbox overhead: what one sandboxed run costs above starting Node bare.
// The dream cycle runs a setup, a solution and a validator per attempt, so
// the sandbox's own cost per run (namespaces, mounts, cgroup, temporary
// folder, tmpfs, the copy-in) must stay small next to Node's start-up: target ≤ 60 ms median.
//
//   node dist/benchmarks/sandbox-overhead.js [--runs N]      (prints JSON)
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { runInSandbox } from "../src/dream/sandbox/run-in-sandbox.js";
import type { SandboxIsolation } from "../src/dream/sandbox/sandbox-result.js";

export interface SandboxOverheadResult {
  benchmark: "sandbox-overhead";
  runs: number;
  /** Median milliseconds of `node -e 0` with the sandbox's minimal environment: spawn to close. */
  bareNodeMedianMs: number;
  /** Median milliseconds of a whole `runInSandbox` call on an empty program (temporary folder, cgroup and clean-up included). */
  sandboxCallMedianMs: number;
  /** Median of the runs' own wallMs (spawn to exit, inside the call). */
  sandboxWallMedianMs: number;
  /** sandboxCallMedianMs − bareNodeMedianMs: the target is ≤ 60. */
  overheadMedianMs: number;
  isolation: SandboxIsolation;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function bareNode(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // The sandbox's environment, not the host's: NODE_EXTRA_CA_CERTS alone adds ~50 ms to every start here.
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore", env: { PATH: "/usr/local/bin:/usr/bin:/bin" } });
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - started));
  });
}

/** Alternates bare and sandboxed runs (after one warm-up of each) so machine load affects both alike. */
export async function measureSandboxOverhead(runs: number): Promise<SandboxOverheadResult> {
  await bareNode();
  let isolation = (await runInSandbox({ source: "" })).isolation;
  const bare: number[] = [];
  const calls: number[] = [];
  const walls: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    bare.push(await bareNode());
    const started = performance.now();
    const result = await runInSandbox({ source: "" });
    calls.push(performance.now() - started);
    walls.push(result.wallMs);
    if (result.status !== "ok") throw new Error(`an empty program failed in the sandbox: ${result.reason} ${result.stderr}`);
    isolation = result.isolation;
  }
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    benchmark: "sandbox-overhead",
    runs,
    bareNodeMedianMs: round(median(bare)),
    sandboxCallMedianMs: round(median(calls)),
    sandboxWallMedianMs: round(median(walls)),
    overheadMedianMs: round(median(calls) - median(bare)),
    isolation,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const runsIndex = process.argv.indexOf("--runs");
  const runs = runsIndex === -1 ? 30 : Number(process.argv[runsIndex + 1]);
  console.log(JSON.stringify(await measureSandboxOverhead(runs)));
}
