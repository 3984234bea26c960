import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";

const POLICY_FILE = /^policy-v(\d+)(\.lora\.gguf|\.gguf|\.peft)$/;

/**
 * Deletes the synced policy files of `folder` that no one reads any more: every
 * version older than the newest `keep` (`policy-v<N>.gguf`,
 * `policy-v<N>.lora.gguf`, and the `policy-v<N>.peft` folder vLLM serving
 * writes beside an adapter), never version 0 (a trainer's initial adapter) and
 * never a file of another name. The engine holds the weights it serves in
 * memory, and pool workers get theirs through shared memory, so no reader has
 * an older version's file open (vLLM read the PEFT folder when it loaded it).
 * Returns the names it deleted.
 */
export async function prunePolicies(folder: string, keep: number | "all", newestVersion: number): Promise<string[]> {
  if (keep === "all") return [];
  const stale = (await readdir(folder)).filter((name) => {
    const version = Number(POLICY_FILE.exec(name)?.[1] ?? Number.NaN);
    return version > 0 && version <= newestVersion - keep;
  });
  await Promise.all(stale.map((name) => rm(join(folder, name), { recursive: true, force: true })));
  return stale.sort();
}
