import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * selfplay's folder in the user's cache: `$SELFPLAY_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/selfplay`, else `~/.cache/selfplay`. What is built or fetched
 * there once (llama.cpp's tools, the real models) serves every checkout and clone on the machine.
 */
export function userCacheFolder(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  if (environment.SELFPLAY_CACHE_DIR) return resolve(environment.SELFPLAY_CACHE_DIR);
  return join(environment.XDG_CACHE_HOME ? resolve(environment.XDG_CACHE_HOME) : join(homedir(), ".cache"), "selfplay");
}
