import { describe, expect, it } from "vitest";
import { measureFleetCell } from "../../../../src/benchmarks/rollout/measure-fleet-cell.js";
import { FleetCellSchema } from "../../../../src/benchmarks/rollout/rollout-bench-result.js";
import { bundledArithmeticBase } from "../../../../src/inference/model-files/bundled-models.js";

describe("measureFleetCell on two real llama-server processes", () => {
  it("runs the arithmetic workload through the fleet, both servers answering, and reports it beside the in-process figures (given, and at its own threads)", async () => {
    const measured = await measureFleetCell({
      modelPath: bundledArithmeticBase(),
      servers: 2,
      sequences: 4,
      threadsPerServer: 1,
      proposals: 2,
      contextPerSequence: 256,
      rounds: 1,
      inProcess: { tokensPerSecond: 100, threads: 1 },
      buildTools: false,
    });
    expect(measured.fleetReason).toBeUndefined();
    const cell = FleetCellSchema.parse(measured.fleet);
    expect(cell).toMatchObject({ shape: "arithmetic", preset: "arithmetic-base", mode: "exact", servers: 2, slotsPerServer: 2, threadsPerServer: 1, sequences: 4, inProcess: 100, inProcessThreads: 1 });
    expect(cell.ratioToInProcess).toBeCloseTo(cell.ours / 100, 3);
    // Measured here: the same workload in process at the fleet's 2 threads.
    expect(cell.sameThreadsRatio).toBeCloseTo(cell.ours / cell.inProcessSameThreads, 3);
    expect(cell.servedPerServer).toHaveLength(2);
    // 2 proposals × 4 solvers: more requests at once than one server's 2 slots, so both answer.
    for (const served of cell.servedPerServer) expect(served).toBeGreaterThan(0);
    expect(cell.serverStartSeconds).toBeGreaterThan(0);
    expect(cell.connectSeconds).toBeGreaterThan(0);
  });
});
