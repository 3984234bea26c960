import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { crc32c, maskedCrc32c } from "../../../src/training/reports/masked-crc32c.js";
import { TensorBoardEventFile } from "../../../src/training/reports/tensorboard-event-file.js";

const reader = join(import.meta.dirname, "read-tfevents.py");
// Debian's python3 (not a pyenv shim) with python3-protobuf, and protoc: .ci/run installs both.
const PYTHON = "/usr/bin/python3";

function decoderAvailable(): boolean {
  const probe = spawnSync(PYTHON, ["-c", "import google.protobuf"], { encoding: "utf8" });
  const protoc = spawnSync("protoc", ["--version"], { encoding: "utf8" });
  if (probe.status === 0 && protoc.status === 0) return true;
  if (process.env.SELFPLAY_REQUIRE_TENSORBOARD_DECODER === "1") throw new Error("SELFPLAY_REQUIRE_TENSORBOARD_DECODER=1 but python3-protobuf or protoc is missing: apt-get install python3-protobuf protobuf-compiler");
  return false;
}

const decode = (file: string) =>
  execFileSync(PYTHON, [reader, file], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { step: number; wallTime: number; fileVersion?: string; scalars?: Record<string, number> });

describe("CRC-32C", () => {
  it("gives the check value of the standard test vector and TFRecord's mask of it", () => {
    const bytes = new TextEncoder().encode("123456789");
    expect(crc32c(bytes)).toBe(0xe3069283);
    const crc = 0xe3069283;
    expect(maskedCrc32c(bytes)).toBe(((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0);
  });
});

describe.runIf(decoderAvailable())("TensorBoard event files, read back by an independent decoder (protoc + python3-protobuf)", () => {
  it("holds the file version, then each step's scalars under their tags, every record's CRCs intact", () => {
    const folder = mkdtempSync(join(tmpdir(), "selfplay-tfevents-"));
    const file = TensorBoardEventFile.create(folder, new Date(1_700_000_000_000));
    file.writeScalars(1, { "rewards/solver": 0.3125, trainedReward: 0.444, gradientNorm: Number.NaN }, 1_700_000_001);
    file.writeScalars(2, { "rewards/solver": 0.5, heldOutAccuracy: 0.517 }, 1_700_000_002.5);
    expect(readdirSync(folder)).toEqual([expect.stringMatching(/^events\.out\.tfevents\.1700000000\./)]);
    const events = decode(file.path);
    expect(events[0]).toMatchObject({ step: 0, fileVersion: "brain.Event:2", wallTime: 1_700_000_000 });
    // simple_value is a float: the values come back rounded to f32; the NaN is left out.
    expect(events.slice(1)).toEqual([
      { step: 1, wallTime: 1_700_000_001, scalars: { "rewards/solver": Math.fround(0.3125), trainedReward: Math.fround(0.444) } },
      { step: 2, wallTime: 1_700_000_002.5, scalars: { "rewards/solver": 0.5, heldOutAccuracy: Math.fround(0.517) } },
    ]);
  });

  it("is caught by the decoder when a byte of a record changes", () => {
    const folder = mkdtempSync(join(tmpdir(), "selfplay-tfevents-"));
    const file = TensorBoardEventFile.create(folder);
    file.writeScalars(1, { loss: 1.5 });
    const bytes = readFileSync(file.path);
    bytes[bytes.length - 6] = (bytes[bytes.length - 6] as number) ^ 0xff;
    writeFileSync(file.path, bytes);
    const run = spawnSync(PYTHON, [reader, file.path], { encoding: "utf8" });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/CRC mismatch/);
  });
});
