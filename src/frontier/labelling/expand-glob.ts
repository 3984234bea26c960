import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

const MAGIC = /[*?]/;

/**
 * The files a glob names, sorted. `*` matches any run of characters within a
 * path segment and `?` one character (neither matches a leading dot), and a
 * `**` segment any number of folders, none included. A pattern without
 * wildcards names itself when it is a file. Symbolic links to folders are not
 * followed, so a link cycle cannot loop. (Node 20 has no `fs.glob`.)
 */
export async function expandGlob(pattern: string): Promise<string[]> {
  const segments = pattern.split(/[\\/]/);
  const firstMagic = segments.findIndex((segment) => MAGIC.test(segment));
  if (firstMagic === -1) return (await isFile(pattern)) ? [pattern] : [];
  const base = segments.slice(0, firstMagic).join("/") || (pattern.startsWith("/") ? "/" : ".");
  const found = new Set<string>();
  await walk(base, segments.slice(firstMagic), found);
  return [...found].sort();
}

async function walk(folder: string, segments: readonly string[], found: Set<string>): Promise<void> {
  const [segment, ...rest] = segments;
  if (segment === undefined) return;
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  if (segment === "**") {
    await walk(folder, rest, found);
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith(".")) await walk(join(folder, entry.name), segments, found);
    }
    return;
  }
  const matcher = segmentMatcher(segment);
  for (const entry of entries) {
    if (!matcher.test(entry.name)) continue;
    const path = join(folder, entry.name);
    if (rest.length === 0) {
      if (entry.isFile() || (entry.isSymbolicLink() && (await isFile(path)))) found.add(path);
    } else if (entry.isDirectory()) {
      await walk(path, rest, found);
    }
  }
}

function segmentMatcher(segment: string): RegExp {
  const body = segment.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]");
  // Like a shell, a wildcard does not match a leading dot; a segment that starts with "." may.
  return new RegExp(segment.startsWith(".") ? `^${body}$` : `^(?!\\.)${body}$`);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((stats) => stats.isFile(), () => false);
}
