import { mkdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { PoolBenchResultSchema, type PoolBenchResult } from "../benchmarks/pool/pool-bench-result.js";
import { PoolDefaultError } from "./errors/index.js";
import { unknownKeyMessage } from "../core/unknown-key-message.js";
import { writeFileAtomic } from "../core/write-file-atomic.js";

/** Environment variable naming selfplay's configuration folder (tests set it; so can a user). */
export const CONFIG_DIRECTORY_VARIABLE = "SELFPLAY_CONFIG_DIR";
export const POOL_DEFAULT_FILE_NAME = "pool-default.json";

/**
 * `pool-default.json`: this machine's RolloutPool setting for `selfplay run`
 * and `selfplay train` without `--workers`, chosen by `selfplay bench pool
 * --save`, with the measurement it was chosen from.
 */
export const PoolDefaultSchema = z
  .strictObject({
    /** Layout of this file; a reader refuses another. */
    version: z.literal(1),
    /** Worker threads; 0 runs in-process. */
    workers: z.number().int().min(0).max(256),
    engine: z.enum(["shared", "per-worker"]),
    /** The chosen cell's median rollouts/s and generated tokens/s. */
    rolloutsPerSecond: z.number().min(0),
    tokensPerSecond: z.number().min(0),
    /** When the file was written (ISO 8601, UTC). */
    savedAt: z.iso.datetime(),
    /** The whole `selfplay bench pool --json` result. */
    measurement: PoolBenchResultSchema,
  })
  .refine((saved) => saved.engine === "shared" || saved.workers > 0, { path: ["engine"], message: '"per-worker" needs workers ≥ 1' });
export type PoolDefault = z.infer<typeof PoolDefaultSchema>;

/**
 * Where the pool default lives: `$SELFPLAY_CONFIG_DIR/pool-default.json` when
 * that is set, else `$XDG_CONFIG_HOME/selfplay/` (an absolute one, as the XDG
 * spec says), else `~/.config/selfplay/`.
 */
export function poolDefaultPath(environment: Readonly<Record<string, string | undefined>>): string {
  const configured = environment[CONFIG_DIRECTORY_VARIABLE];
  if (configured) return join(resolve(configured), POOL_DEFAULT_FILE_NAME);
  const xdg = environment.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".config"), "selfplay", POOL_DEFAULT_FILE_NAME);
}

/** The saved default, or undefined when there is no file; a file that is not one is a PoolDefaultError naming it. */
export async function readPoolDefault(path: string): Promise<PoolDefault | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PoolDefaultError(path, `cannot be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PoolDefaultError(path, `is not JSON (${(error as Error).message})`);
  }
  const parsed = PoolDefaultSchema.safeParse(json, { error: unknownKeyMessage });
  if (parsed.success) return parsed.data;
  // An unknown key first: a misspelt one is often why another looks missing.
  const issue = parsed.error.issues.find((candidate) => candidate.code === "unrecognized_keys") ?? parsed.error.issues[0];
  const issuePath = issue?.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : (issue?.path ?? []);
  throw new PoolDefaultError(path, `is not a pool default (${issuePath.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"})`);
}

/** Makes `measurement.best` the pool default at `path` (write-then-rename, folders created). */
export async function writePoolDefault(path: string, measurement: PoolBenchResult, savedAt: Date): Promise<PoolDefault> {
  const { workers, engine } = measurement.best;
  const best = measurement.cells.find((cell) => cell.workers === workers && cell.engine === engine);
  const saved = PoolDefaultSchema.parse({
    version: 1,
    workers,
    engine,
    rolloutsPerSecond: best?.rolloutsPerSecond,
    tokensPerSecond: best?.tokensPerSecond,
    savedAt: savedAt.toISOString(),
    measurement,
  });
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(saved, null, 2)}\n`);
  return saved;
}
