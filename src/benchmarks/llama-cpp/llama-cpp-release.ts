import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { LlamaCppToolError } from "../errors/index.js";
import { packageRoot } from "../../core/package-root.js";
import { userCacheFolder } from "../../core/user-cache-folder.js";

const ReleaseInfoSchema = z.object({ tag: z.string().min(1) });

/** The llama.cpp source node-llama-cpp ships, and where selfplay caches what it builds from it. */
export interface LlamaCppRelease {
  /** The release tag node-llama-cpp records in `llama/llama.cpp.info.json`. */
  tag: string;
  /** node-llama-cpp's git bundle of that release's source. */
  bundlePath: string;
  /** `llama.cpp-<tag>/` in the user's cache (`userCacheFolder`): source, build and bin folders. */
  folder: string;
}

/** node-llama-cpp's folder, found the way Node resolves packages: this package's node_modules, then its parents'. */
function nodeLlamaCppFolder(root: string): string {
  for (let folder = root; ; folder = dirname(folder)) {
    const candidate = join(folder, "node_modules", "node-llama-cpp");
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(folder) === folder) throw new LlamaCppToolError("llama.cpp source", "node-llama-cpp, whose bundle holds it, is not installed (run npm install)");
  }
}

/** The bundled llama.cpp release: the same source as the library node-llama-cpp loads, so the comparison is like for like. */
export function bundledLlamaCppRelease(): LlamaCppRelease {
  const root = packageRoot(import.meta.url);
  const llamaFolder = join(nodeLlamaCppFolder(root), "llama");
  const infoPath = join(llamaFolder, "llama.cpp.info.json");
  // `node-llama-cpp source clear` (all, its default) deletes this file along with the source it downloaded.
  if (!existsSync(infoPath)) throw new LlamaCppToolError("llama.cpp source", `${infoPath} is missing (\`node-llama-cpp source clear\` removes it); reinstall node-llama-cpp (npm ci)`);
  const { tag } = ReleaseInfoSchema.parse(JSON.parse(readFileSync(infoPath, "utf8")));
  return { tag, bundlePath: join(llamaFolder, "gitRelease.bundle"), folder: join(userCacheFolder(), `llama.cpp-${tag}`) };
}
