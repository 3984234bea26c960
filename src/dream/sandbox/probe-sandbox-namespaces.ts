import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxFstab } from "./sandbox-fstab.js";
import { sharedSandboxRoot } from "./shared-sandbox-root.js";

/** Whether this machine lets us make the sandbox's namespaces and build its root inside them. */
export interface NamespaceProbe {
  available: boolean;
  /** Why not, as the probe printed it; empty when available. */
  detail: string;
  /** True when the host user is root, so the run drops to uid 65534 with setpriv before making the namespaces. */
  dropsUid: boolean;
}

let cached: Promise<NamespaceProbe> | undefined;

/**
 * Walks the sandbox's own route once per process, with `true` as the program, and remembers the answer
 * (containers often refuse it): as root setpriv to uid 65534, `unshare -rmnpuf`, the read-only binds, the capped
 * tmpfs, /proc, the hostname, `pivot_root . .`, the capability drop. Available when the supervisor reports
 * `ended 0` (util-linux's setpriv, unshare, pivot_root and hostname, and coreutils, must be installed).
 */
export function probeSandboxNamespaces(): Promise<NamespaceProbe> {
  cached ??= (async () => {
    const dropsUid = process.getuid?.() === 0;
    const folder = await mkdtemp(join(tmpdir(), "selfplay-sandbox-probe-"));
    try {
      await chmod(folder, 0o755);
      await mkdir(join(folder, "inputs"), { mode: 0o755 });
      const { root, script, binds } = await sharedSandboxRoot();
      await writeFile(join(folder, "fstab"), sandboxFstab({ root, binds, diskBytes: 65_536, maxFiles: 16 }), { mode: 0o644 });
      const wrapperArguments = [script, "host", "-", "namespaces", dropsUid ? "1" : "0", root, join(folder, "inputs"), join(folder, "fstab"), "-", "true"];
      return await new Promise<NamespaceProbe>((resolve) => {
        const child = spawn("sh", wrapperArguments, { cwd: "/", env: { PATH: "/usr/local/bin:/usr/bin:/bin" }, stdio: ["ignore", "ignore", "pipe", "pipe"], timeout: 10_000 });
        let stderr = "";
        let report = "";
        child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
        child.stdio[3]?.on("data", (chunk: Buffer) => (report += chunk.toString("utf8")));
        child.on("error", (error) => resolve({ available: false, detail: error.message, dropsUid }));
        child.on("close", (code) => {
          const available = code === 0 && report === "ended 0\n";
          resolve({ available, detail: available ? "" : (stderr.trim().split("\n")[0] ?? "") || `the sandbox's wrapper ended with ${code}`, dropsUid });
        });
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  })();
  return cached;
}
