import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { contentionNote, measureFleetCell, type FleetCellOptions } from "../../../src/benchmarks/rollout/measure-fleet-cell.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-fleet-cell-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A cell whose llama-server is looked for in `releaseFolder`/bin; nothing here loads a model. */
function options(releaseFolder: string, overrides: Partial<FleetCellOptions> = {}): FleetCellOptions {
  return {
    modelPath: join(folder, "no-model.gguf"),
    servers: 2,
    sequences: 4,
    threadsPerServer: 1,
    proposals: 2,
    contextPerSequence: 256,
    rounds: 1,
    inProcess: { tokensPerSecond: 100, threads: 1 },
    buildTools: false,
    release: { tag: "test", bundlePath: join(folder, "none.bundle"), folder: releaseFolder },
    ...overrides,
  };
}

describe("measureFleetCell without a working llama-server", () => {
  it("is null with the reason when llama-server is not built and may not be", async () => {
    const measured = await measureFleetCell(options(join(folder, "empty")));
    expect(measured.fleet).toBeNull();
    expect(measured.fleetReason).toMatch(/^llama-server: not built yet; run the benchmark once without --quick to build it into .*\(minutes\)$/);
  });

  it("is null with the reason when a server exits before it answers /health", async () => {
    const release = join(folder, "broken");
    await mkdir(join(release, "bin"), { recursive: true });
    await writeFile(join(release, "bin", "llama-server"), "#!/bin/sh\nexit 3\n");
    await chmod(join(release, "bin", "llama-server"), 0o755);
    const measured = await measureFleetCell(options(release));
    expect(measured.fleet).toBeNull();
    expect(measured.fleetReason).toMatch(/^llama-server: exited \(code 3\) before it answered http:\/\/127\.0\.0\.1:\d+\/health/);
  });

  it("refuses sequences that do not split evenly across the servers", async () => {
    await expect(measureFleetCell(options(join(folder, "empty"), { sequences: 5 }))).rejects.toThrow(InvalidInputError);
  });
});

describe("contentionNote", () => {
  it("says the servers compete on too few cores (2 servers × 1 thread + this process on 2 cores), and what each ratio compares", () => {
    expect(contentionNote(2, 1, 2)).toMatch(/^2 llama-server processes × 1 thread\(s\) and this process \(arena, HTTP client\) on 2 core\(s\): they compete for the cores, so neither ratio is a speed-up; /);
    expect(contentionNote(2, 1, 3)).toMatch(/: each has a core of its own, but it is one machine, not a fleet of them; /);
    for (const cores of [2, 3]) expect(contentionNote(2, 1, cores)).toMatch(/sameThreadsRatio against 2 in process, which leaves the HTTP client's and the fleet's cost together with the difference between llama\.cpp builds .* and between 2 decodes of 1 thread\(s\) and one of 2(;|$)/);
  });
});
