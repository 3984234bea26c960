import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { JsonlAppender } from "../../../src/core/jsonl/jsonl-appender.js";
import { readJsonl } from "../../../src/core/jsonl/read-jsonl.js";

const RecordSchema = z.object({ id: z.number().int(), text: z.string() });

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-jsonl-appender-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("JsonlAppender", () => {
  it("writes one JSON object per line, each newline-terminated", async () => {
    const path = join(directory, "log.jsonl");
    const appender = await JsonlAppender.open(path);
    expect(appender.path).toBe(path);
    await appender.append({ id: 1, text: "a" });
    await appender.append({ id: 2, text: "line\nbreak" });
    await appender.close();
    expect(await readFile(path, "utf8")).toBe('{"id":1,"text":"a"}\n{"id":2,"text":"line\\nbreak"}\n');
  });

  it("round-trips through readJsonl, including appendMany", async () => {
    const path = join(directory, "log.jsonl");
    const records = [
      { id: 0, text: "zero" },
      { id: 1, text: "ünïcødé ✓" },
      { id: 2, text: "" },
      { id: 3, text: '"quoted"' },
    ];
    const appender = await JsonlAppender.open(path);
    await appender.append(records[0]);
    await appender.appendMany(records.slice(1));
    await appender.close();
    expect(await readJsonl(path, RecordSchema)).toEqual({ records, tornLastLine: null });
  });

  it("appendMany of nothing writes nothing", async () => {
    const path = join(directory, "log.jsonl");
    const appender = await JsonlAppender.open(path);
    await appender.appendMany([]);
    await appender.close();
    expect(await readFile(path, "utf8")).toBe("");
  });

  it("appends to an existing file instead of truncating it", async () => {
    const path = join(directory, "log.jsonl");
    await writeFile(path, '{"id":0,"text":"before"}\n');
    const appender = await JsonlAppender.open(path);
    await appender.append({ id: 1, text: "after" });
    await appender.close();
    const reopened = await JsonlAppender.open(path);
    await reopened.appendMany([{ id: 2, text: "again" }]);
    await reopened.close();
    expect((await readJsonl(path, RecordSchema)).records.map((record) => record.id)).toEqual([0, 1, 2]);
  });
});

describe("JsonlAppender ordering", () => {
  it("keeps call order for appends that are not awaited one by one", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "selfplay-order-")), "order.jsonl");
    const appender = await JsonlAppender.open(path);
    await Promise.all(Array.from({ length: 50 }, (_, index) => appender.append({ index })));
    await appender.close();
    const lines = (await readFile(path, "utf8")).trim().split("\n").map((line) => JSON.parse(line).index);
    expect(lines).toEqual(Array.from({ length: 50 }, (_, index) => index));
  });
});
