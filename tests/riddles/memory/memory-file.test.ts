import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryFile } from "../../../src/riddles/memory/memory-file.js";

const scratch = () => mkdtempSync(join(tmpdir(), "selfplay-memory-"));

async function numbers(path: string) {
  return MemoryFile.create<number>({
    path,
    title: "Numbers",
    formatEntry: (entry) => `- number ${entry}`,
    formatExcerpt: (entry) => `- n${entry}`,
    distill: (entries) => [`count ${entries.length}`, `sum ${entries.reduce((sum, entry) => sum + entry, 0)}`],
  });
}

describe("MemoryFile", () => {
  it("appends entries below the distilled section, and compaction rewrites the section at the top keeping every entry", async () => {
    const path = join(scratch(), "memory.md");
    const memory = await numbers(path);
    expect(readFileSync(path, "utf8")).toBe("# Numbers\n\n## Distilled\n\n(nothing distilled yet)\n\n## Episodes\n\n");
    await memory.append(4);
    await memory.append(5);
    expect(readFileSync(path, "utf8")).toBe("# Numbers\n\n## Distilled\n\n(nothing distilled yet)\n\n## Episodes\n\n- number 4\n- number 5\n");
    await memory.compact();
    await memory.append(6);
    expect(readFileSync(path, "utf8")).toBe(
      "# Numbers\n\n## Distilled\n\nCompacted after 2 episode(s).\n\n- count 2\n- sum 9\n\n## Episodes\n\n- number 4\n- number 5\n- number 6\n",
    );
  });

  it("excerpts the distilled lines and the last entries, within the character limit", async () => {
    const memory = await numbers(join(scratch(), "memory.md"));
    expect(memory.excerpt(3)).toBe("");
    for (const entry of [1, 2, 3, 4]) await memory.append(entry);
    expect(memory.excerpt(2)).toBe("recent:\n- n3\n- n4");
    await memory.compact();
    expect(memory.excerpt(2)).toBe("distilled:\n- count 4\n- sum 10\nrecent:\n- n3\n- n4");
    expect(memory.excerpt(0)).toBe("distilled:\n- count 4\n- sum 10");
    // The oldest recent line gives way first, then the last distilled lines.
    expect(memory.excerpt(2, 45)).toBe("distilled:\n- count 4\n- sum 10\nrecent:\n- n4");
    expect(memory.excerpt(2, 35)).toBe("distilled:\n- count 4\nrecent:\n- n4");
  });
});
