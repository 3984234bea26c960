import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prunePolicies } from "../../../src/training/loop/prune-policies.js";

function folderWith(names: readonly string[]): string {
  const folder = mkdtempSync(join(tmpdir(), "selfplay-policies-"));
  for (const name of names) writeFileSync(join(folder, name), "");
  return folder;
}

describe("prunePolicies", () => {
  it("keeps the newest K versions and version 0 (the initial adapter), deletes the older ones and nothing else", async () => {
    const folder = folderWith(["policy-v0.lora.gguf", "policy-v1.lora.gguf", "policy-v2.lora.gguf", "policy-v3.lora.gguf", "policy-v4.lora.gguf", "notes.txt", "policy-v2.gguf.tmp"]);
    expect(await prunePolicies(folder, 2, 4)).toEqual(["policy-v1.lora.gguf", "policy-v2.lora.gguf"]);
    expect(readdirSync(folder).sort()).toEqual(["notes.txt", "policy-v0.lora.gguf", "policy-v2.gguf.tmp", "policy-v3.lora.gguf", "policy-v4.lora.gguf"]);
  });

  it("deletes an old version's PEFT folder (vLLM serving's) with its adapter, and keeps the newer ones", async () => {
    const folder = folderWith(["policy-v0.lora.gguf", "policy-v1.lora.gguf", "policy-v2.lora.gguf"]);
    for (const version of [0, 1, 2]) {
      mkdirSync(join(folder, `policy-v${version}.peft`));
      writeFileSync(join(folder, `policy-v${version}.peft`, "adapter_config.json"), "{}");
    }
    expect(await prunePolicies(folder, 1, 2)).toEqual(["policy-v1.lora.gguf", "policy-v1.peft"]);
    expect(readdirSync(folder).sort()).toEqual(["policy-v0.lora.gguf", "policy-v0.peft", "policy-v2.lora.gguf", "policy-v2.peft"]);
  });

  it("keeps every version with \"all\", and all of them while there are no more than K", async () => {
    const names = ["policy-v1.gguf", "policy-v2.gguf", "policy-v3.gguf"];
    const all = folderWith(names);
    expect(await prunePolicies(all, "all", 3)).toEqual([]);
    expect(readdirSync(all).sort()).toEqual(names);
    const few = folderWith(names);
    expect(await prunePolicies(few, 3, 3)).toEqual([]);
    expect(await prunePolicies(few, 1, 3)).toEqual(["policy-v1.gguf", "policy-v2.gguf"]);
  });
});
