import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { nativeAddon, skipNote } from "../inference/native/native-addon-for-tests.js";

describe.skipIf(nativeAddon.binding === undefined)(`benchmarks/native-decode (quick mode)${skipNote}`, () => {
  it("prints one JSON object: tokens/s of both decoders per mode and sequence count", async () => {
    const script = resolve(import.meta.dirname, "../../dist/benchmarks/native-decode.js");
    const { stdout } = await promisify(execFile)(process.execPath, [script, "--quick"]);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ benchmark: "native-decode", preset: "tiny", threads: 1 });
    expect(result.results.map((row: { sequences: number }) => row.sequences)).toEqual([1, 4]);
    for (const row of result.results) {
      const figures = [row.speedup, row.cpuSpeedup, ...["native", "nodeLlamaCpp"].flatMap((decoder) => [row[decoder].tokensPerSecond, row[decoder].tokensPerCpuSecond])];
      for (const figure of figures) expect(Number.isFinite(figure) && figure > 0).toBe(true);
    }
  });
});
