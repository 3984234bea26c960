import { fileURLToPath } from "node:url";

/**
 * The first frame of `stack` in a user's own code, as `at fn (/path/file.js:12:34)` (a `file:` URL made a path):
 * the first whose file is not under one of `ownFolders` (selfplay's src/, dist/ and node_modules/) and is a file at
 * all (not `node:internal/…`, `<anonymous>` or `native`). Undefined when there is none.
 */
export function firstUserFrame(stack: string, ownFolders: readonly string[]): string | undefined {
  for (const line of stack.split("\n")) {
    const frame = /^\s+at (?:(.*) \((.+)\)|(.+))$/.exec(line);
    if (!frame) continue;
    const location = (frame[2] ?? frame[3]) as string;
    const place = /^(.*):(\d+):(\d+)$/.exec(location);
    if (!place) continue;
    const [, file = "", row, column] = place;
    const path = file.startsWith("file://") ? fileURLToPath(file) : file;
    if (!path.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(path)) continue;
    if (ownFolders.some((folder) => path.startsWith(folder))) continue;
    const at = `${path}:${row}:${column}`;
    return frame[1] === undefined ? `at ${at}` : `at ${frame[1]} (${at})`;
  }
  return undefined;
}
