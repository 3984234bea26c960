import { join, posix } from "node:path";
import { userCacheFolder } from "../../core/user-cache-folder.js";
import type { FetchableModel } from "./fetchable-models.js";

/** Where `fetchModel` keeps a model: `<user cache>/models/<the GGUF's own file name>` (`$SELFPLAY_CACHE_DIR` moves it). */
export function fetchedModelPath(model: FetchableModel, environment: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(userCacheFolder(environment), "models", posix.basename(model.file.member));
}
