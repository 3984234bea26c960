import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RolloutPoolError } from "./errors/index.js";
import { packageRoot } from "../../core/package-root.js";

/**
 * The `file:` URL of a selfplay module as JavaScript, for an episode module
 * that pool workers import or a benchmark's child process: the module itself in the build; its twin under
 * `dist/` when it runs from TypeScript sources (vitest), because worker
 * threads load only JavaScript. Pass the module's own `import.meta.url`.
 */
export function compiledModuleUrl(moduleUrl: string): string {
  const path = fileURLToPath(moduleUrl);
  if (!path.endsWith(".ts")) return moduleUrl;
  const root = packageRoot(moduleUrl);
  const compiled = join(root, "dist", relative(root, path)).replace(/\.ts$/, ".js");
  if (!existsSync(compiled)) {
    throw new RolloutPoolError(`the module ${compiled} does not exist: worker threads and child processes load the compiled JavaScript; run \`npm run build\``);
  }
  return pathToFileURL(compiled).href;
}

/**
 * The compiled JavaScript file `baseName.js` beside the module at
 * `moduleUrl` (pass `import.meta.url`): a worker entry or a child process's
 * script, found in the build from sources and build alike.
 */
export function compiledSiblingFile(moduleUrl: string, baseName: string): string {
  const extension = moduleUrl.endsWith(".ts") ? "ts" : "js";
  return fileURLToPath(compiledModuleUrl(new URL(`./${baseName}.${extension}`, moduleUrl).href));
}
