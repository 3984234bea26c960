import { z } from "zod";

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
     * The run's writable folder, seen by the program as `/work` (its cwd). Give one to read outputs
     * afterwards (it is left in place); default a fresh temporary folder, removed after the run.
     */
    workDirectory: z.string().min(1).optional(),
    /** Wall-clock limit in milliseconds, sandbox start-up included; past it the whole process group is killed. */
    timeoutMs: z.number().int().min(100).max(3_600_000).default(10_000),
    /** Memory cap in MiB: RLIMIT_DATA (bounds heap, Buffers and ArrayBuffers) and, at 3/4 of it, V8's --max-old-space-size. */
    memoryMb: z.number().int().min(64).max(65_536).default(256),
    /** Bytes of stdout + stderr kept; past it reading stops and the run is killed (reason `output-cap`). */
    outputCapBytes: z.number().int().min(1).max(256 * 1024 * 1024).default(1024 * 1024),
    /** Tasks (processes and their threads: Node runs about a dozen each) the run may have at once, via the pids cgroup; a fork bomb hits this. */
    maxProcesses: z.number().int().min(16).max(65_536).default(128),
    /** Environment variables the program sees, added to a minimal PATH/HOME/TMPDIR; nothing of the host's is passed. */
    env: z.record(z.string(), z.string()).default({}),
    /** `auto`: namespaces where unshare works, else the permission-flag fallback with a warning; `namespaces`: refuse to run without them. */
    isolation: z.enum(["auto", "namespaces"]).default("auto"),
    /** Pass Node's --experimental-permission flags (reads and writes only under the work directory). Default true. */
    permissionFlags: z.boolean().default(true),
    /** Let the program start child processes (Node's permission model refuses them otherwise). Default false. */
    allowChildProcesses: z.boolean().default(false),
  })
  .refine((options) => (options.file === undefined) !== (options.source === undefined), {
    message: "exactly one of file and source",
    path: ["file"],
  });

export type SandboxOptions = z.input<typeof SandboxOptionsSchema>;
export type ResolvedSandboxOptions = z.output<typeof SandboxOptionsSchema>;
