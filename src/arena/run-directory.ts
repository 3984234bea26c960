import { access, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { InvalidInputError } from "../core/errors/index.js";
import type { JsonObject } from "../core/json.js";
import { JsonlAppender } from "../core/jsonl/jsonl-appender.js";
import { writeFileAtomic } from "../core/write-file-atomic.js";

/** The files of a run folder, `runs/NAME/`. */
export const RUN_FILES = {
  config: "config.json",
  rollouts: "rollouts.jsonl",
  metrics: "metrics.jsonl",
  trainingBatches: "training-batch.jsonl",
} as const;

/**
 * A run on disk: `config.json` written once (write-then-rename), and three
 * append-only JSONL files. A killed run leaves every line already written intact.
 * `rollouts.jsonl` holds no paths or wall-clock times, so the same seed and
 * config give byte-identical files wherever the run is written.
 */
export class RunDirectory {
  private constructor(
    readonly path: string,
    readonly rollouts: JsonlAppender,
    readonly metrics: JsonlAppender,
    readonly trainingBatches: JsonlAppender,
  ) {}

  /** Creates the folder (parents too) and its files; refuses a folder that already holds a run. */
  static async create(path: string, config: JsonObject): Promise<RunDirectory> {
    const configPath = join(path, RUN_FILES.config);
    if (await exists(configPath)) {
      throw new InvalidInputError("out", `a folder without a run in it (${configPath} exists; choose another --out)`, path);
    }
    await mkdir(path, { recursive: true });
    await writeFileAtomic(configPath, `${JSON.stringify(config, null, 2)}\n`);
    return new RunDirectory(
      path,
      await JsonlAppender.open(join(path, RUN_FILES.rollouts)),
      await JsonlAppender.open(join(path, RUN_FILES.metrics)),
      await JsonlAppender.open(join(path, RUN_FILES.trainingBatches)),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.rollouts.close(), this.metrics.close(), this.trainingBatches.close()]);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
