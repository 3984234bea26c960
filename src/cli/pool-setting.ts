import { z } from "zod";
import { InvalidInputError } from "../core/errors/index.js";
import { integerFlag } from "./flag-schemas.js";
import { poolDefaultPath, readPoolDefault } from "./pool-default-file.js";

/** `--workers` and `--pool-engine`, shared by `selfplay run` and `selfplay train`. */
export const POOL_FLAGS = {
  workers: integerFlag(0, 256).optional(),
  poolEngine: z.enum(["shared", "per-worker"], { error: "one of: shared, per-worker" }).optional(),
};

export interface PoolFlags {
  workers?: number | undefined;
  poolEngine?: "shared" | "per-worker" | undefined;
}

/** Where a pool setting came from. */
export type PoolSettingSource =
  | { kind: "flags" }
  /** This machine's `selfplay bench pool --save` default. */
  | { kind: "saved"; path: string }
  /** In-process: no saved default at `path`, or `ignored` says why it does not apply. */
  | { kind: "built-in"; path: string; ignored?: string };

export interface PoolSetting {
  /** Worker threads; 0 runs in-process. */
  workers: number;
  engine: "shared" | "per-worker";
  source: PoolSettingSource;
}

export interface ResolvePoolSettingOptions {
  environment: Readonly<Record<string, string | undefined>>;
  /** Why the saved default does not apply to this run (it was measured on the real engine), if it does not. */
  ignoreSavedDefault?: string;
}

/**
 * The RolloutPool setting of a run: the flags when `--workers` is given, else
 * this machine's saved bench default when there is one, else in-process.
 * Pooled runs give the results of in-process ones, so the setting changes
 * speed only and stays out of what a run records as its configuration.
 */
export async function resolvePoolSetting(flags: PoolFlags, options: ResolvePoolSettingOptions): Promise<PoolSetting> {
  const path = poolDefaultPath(options.environment);
  if (flags.workers !== undefined) {
    const engine = flags.poolEngine ?? "shared";
    if (engine === "per-worker" && flags.workers === 0) {
      throw new InvalidInputError("--pool-engine", "shared, or per-worker with --workers ≥ 1 (an engine in each worker; --workers 0 runs in-process)", engine);
    }
    return { workers: flags.workers, engine, source: { kind: "flags" } };
  }
  if (flags.poolEngine !== undefined) {
    throw new InvalidInputError("--pool-engine", "it together with --workers N (N ≥ 1): the engine of the workers that flag asks for", flags.poolEngine);
  }
  if (options.ignoreSavedDefault !== undefined) return { workers: 0, engine: "shared", source: { kind: "built-in", path, ignored: options.ignoreSavedDefault } };
  const saved = await readPoolDefault(path);
  if (saved) return { workers: saved.workers, engine: saved.engine, source: { kind: "saved", path } };
  return { workers: 0, engine: "shared", source: { kind: "built-in", path } };
}

/** The stderr line a run starts with: the setting and where it came from. */
export function describePoolSetting(setting: PoolSetting): string {
  const what =
    setting.workers === 0
      ? "in-process, no worker threads"
      : `${setting.workers} worker thread${setting.workers === 1 ? "" : "s"}, ${setting.engine === "shared" ? "one shared engine" : "an engine in each"}`;
  const { source } = setting;
  const origin =
    source.kind === "flags"
      ? "from --workers"
      : source.kind === "saved"
        ? `this machine's default from \`selfplay bench pool --save\`, ${source.path}`
        : source.ignored !== undefined
          ? `built-in default; ${source.ignored}`
          : `built-in default; no ${source.path} (\`selfplay bench pool --save\` measures this machine)`;
  return `pool: ${what} (${origin})\n`;
}

/** `--help` of the flags. */
export const WORKERS_HELP =
  "worker threads that run the episodes (a RolloutPool), an integer from 0 to 256; 0 runs them in-process " +
  "(default: this machine's default saved by `selfplay bench pool --save`, else 0)";
export const POOL_ENGINE_HELP = "with --workers ≥ 1, who serves the workers' model calls: shared (one engine, the default) or per-worker (an engine in each, the cores split)";
