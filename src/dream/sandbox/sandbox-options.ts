import { z } from "zod";

/**
 * Protections a caller may agree to run without, where this machine cannot
 * provide them. `namespaces`: fresh user, mount, pid, network and UTS namespaces
 * (and with them the private root, the capped tmpfs and the unprivileged uid);
 * `memory-cgroup`: a memory cgroup whose counters decide the `memory` verdict;
 * `pids-cgroup`: a pids cgroup capping processes and threads.
 */
export const SandboxProtectionSchema = z.enum(["namespaces", "memory-cgroup", "pids-cgroup"]);
export type SandboxProtection = z.infer<typeof SandboxProtectionSchema>;

/** What `runInSandbox` accepts; validated before anything is spawned. */
export const SandboxOptionsSchema = z
  .object({
    /** A JavaScript file to run; it is copied into the work directory (under its own name) and run there. */
    file: z.string().min(1).optional(),
    /** Program text to run, written as `program.js` (CommonJS) in the work directory. Exactly one of `file` and `source`. */
    source: z.string().optional(),
    /** Arguments after the program's path. */
    args: z.array(z.string()).default([]),
    /** Files written into the work directory before the run: relative path → contents (fixtures, inputs). */
    files: z.record(z.string(), z.union([z.string(), z.instanceof(Uint8Array)])).default({}),
    /**
     * A host folder whose contents are the program's `/work` (its cwd). Its files are copied into the run's
     * capped filesystem before the run, and the regular files the program leaves there are copied back after it
     * (a file it deleted stays; symbolic links and other entries are not copied back). Default: a fresh
     * temporary folder, removed after the run.
     */
    workDirectory: z.string().min(1).optional(),
    /** Wall-clock limit in milliseconds, sandbox start-up included; past it the whole run is killed. */
    timeoutMs: z.number().int().min(100).max(3_600_000).default(10_000),
    /**
     * Memory cap in MiB for the program's processes: the memory cgroup's limit is this plus `diskMb` (a tmpfs
     * keeps its files in memory, charged to the writer's cgroup). Without a memory cgroup: RLIMIT_DATA and
     * V8's --max-old-space-size at 3/4 of it.
     */
    memoryMb: z.number().int().min(64).max(65_536).default(256),
    /**
     * Size in MiB of the tmpfs that is the program's `/work` (`size=`). 64 by default: the dream cycle's largest
     * fixtures (expert tier) are a few hundred KiB, so this leaves two orders of magnitude while a runaway
     * writer stops within a fraction of a second. Past it a write fails with ENOSPC and the verdict is `disk`.
     */
    diskMb: z.number().int().min(1).max(65_536).default(64),
    /**
     * Files and folders the tmpfs may hold (`nr_inodes=`, its root folder included). 4,096 by default: a
     * challenge writes a handful, and each inode costs kernel memory (about 1 KiB) outside the size cap.
     */
    maxFiles: z.number().int().min(16).max(10_000_000).default(4_096),
    /** Bytes of stdout + stderr kept; past it reading stops and the run is killed (reason `output-cap`). */
    outputCapBytes: z.number().int().min(1).max(256 * 1024 * 1024).default(1024 * 1024),
    /** Tasks (processes and their threads: Node runs about a dozen each) the run may have at once, via the pids cgroup; a fork bomb hits this. */
    maxProcesses: z.number().int().min(16).max(65_536).default(128),
    /** Environment variables the program sees, added to a minimal PATH/HOME/TMPDIR; nothing of the host's is passed. */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * Protections the run may go without where this machine cannot provide them (each missing one is recorded
     * in the result's `isolation` and `warnings`). Default none: a missing protection refuses the run with
     * SandboxUnavailableError naming it.
     */
    allowMissing: z.array(SandboxProtectionSchema).default([]),
    /** Pass Node's --experimental-permission flags (reads and writes only under the work directory). Default true. */
    permissionFlags: z.boolean().default(true),
    /** Let the program start child processes (Node's permission model refuses them otherwise). Default false. */
    allowChildProcesses: z.boolean().default(false),
  })
  .strict()
  .refine((options) => (options.file === undefined) !== (options.source === undefined), {
    message: "exactly one of file and source",
    path: ["file"],
  });

export type SandboxOptions = z.input<typeof SandboxOptionsSchema>;
export type ResolvedSandboxOptions = z.output<typeof SandboxOptionsSchema>;
