import { existsSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { RolloutPoolError } from "../../core/errors.js";

const WORKER_FILE = "rollout-worker.js";

/**
 * The compiled worker entry. Next to this module in the build; when this
 * module runs from TypeScript sources (vitest), the build's copy under
 * `dist/`, because worker threads load only JavaScript.
 */
export function resolveWorkerFile(moduleUrl: string = import.meta.url): string {
  const here = fileURLToPath(moduleUrl);
  const folder = dirname(here);
  const sourceFolder = `${sep}src${sep}arena${sep}pool`;
  const file =
    here.endsWith(".ts") && folder.endsWith(sourceFolder)
      ? join(folder.slice(0, -sourceFolder.length), "dist", "src", "arena", "pool", WORKER_FILE)
      : join(folder, WORKER_FILE);
  if (!existsSync(file)) {
    throw new RolloutPoolError(`the pool's worker entry ${file} does not exist: workers run the compiled JavaScript; run \`npm run build\``);
  }
  return file;
}
