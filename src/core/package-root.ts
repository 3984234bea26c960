import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PackageRootNotFoundError } from "./errors/package-root-not-found-error.js";

/**
 * The folder of the package a selfplay module belongs to: the nearest folder
 * at or above it with a package.json. The same for the TypeScript sources
 * (`src/…`), the build (`dist/src/…`) and an installed copy
 * (`node_modules/selfplay/dist/src/…`). Pass the module's `import.meta.url`.
 */
export function packageRoot(moduleUrl: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder) throw new PackageRootNotFoundError(start);
  }
}
