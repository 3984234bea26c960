import { rmSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildSandboxRoot } from "./build-sandbox-root.js";
import { SANDBOX_WRAPPER_SCRIPT } from "./sandbox-wrapper-script.js";

/** What every run of this process shares: the empty root layout and the wrapper script, both read-only to the sandbox. */
export interface SharedSandboxRoot {
  /** The root buildSandboxRoot laid out: mount points only; each run mounts over it inside its own mount namespace. */
  root: string;
  /** The wrapper script's path. */
  script: string;
  /** Host folders bound read-only at the same path inside the root, besides /usr. */
  binds: string[];
}

let shared: Promise<SharedSandboxRoot> | undefined;

/**
 * Lays out the sandbox's root and writes the wrapper once per process (they
 * never change, and making and removing the tree cost ~15 ms a run); runs
 * may share it concurrently, since every mount over it happens in the run's
 * own mount namespace. Owned by the host user, mode 0755: the unprivileged
 * uid reads it and cannot change it. Removed when the process exits.
 */
export function sharedSandboxRoot(): Promise<SharedSandboxRoot> {
  shared ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-sandbox-root-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    await chmod(folder, 0o755);
    const root = join(folder, "root");
    await mkdir(root, { mode: 0o755 });
    const binds = await buildSandboxRoot(root, dirname(dirname(await realpath(process.execPath))));
    const script = join(folder, "wrapper.sh");
    await writeFile(script, SANDBOX_WRAPPER_SCRIPT, { mode: 0o644 });
    return { root, script, binds };
  })();
  return shared;
}
