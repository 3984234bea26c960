import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether this machine lets us make the sandbox's namespaces and build its root inside them. */
export interface NamespaceProbe {
  available: boolean;
  /** Why not, as the probe printed it; empty when available. */
  detail: string;
}

let cached: Promise<NamespaceProbe> | undefined;

/** Runs `unshare -rmnpf` with a read-only bind, a proc mount and `unshare --root --wd` (util-linux ≥ 2.36) once per process and remembers the answer (containers often refuse it). */
export function probeSandboxNamespaces(): Promise<NamespaceProbe> {
  cached ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-sandbox-probe-"));
    try {
      return await new Promise<NamespaceProbe>((resolve) => {
        execFile("unshare", ["-rmnpf", "sh", "-c", 'mount -o bind,ro "$1" "$1" && mount -t proc proc "$1" && exec unshare --root=/ --wd=/ true', "sh", folder], { timeout: 10_000 }, (error, _stdout, stderr) => {
          resolve(error ? { available: false, detail: (stderr.trim() || error.message).split("\n")[0] ?? "unshare failed" } : { available: true, detail: "" });
        });
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  })();
  return cached;
}
