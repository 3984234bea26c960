import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CorruptJsonlError } from "../../../src/core/errors/index.js";
import { readJsonl } from "../../../src/core/jsonl/read-jsonl.js";

const RecordSchema = z.object({ id: z.number().int(), text: z.string() });

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-read-jsonl-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function fileWith(content: string): Promise<string> {
  const path = join(directory, "data.jsonl");
  await writeFile(path, content);
  return path;
}

async function corruptError(promise: Promise<unknown>): Promise<CorruptJsonlError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CorruptJsonlError);
  return error as CorruptJsonlError;
}

describe("readJsonl", () => {
  it("reads an empty file as no records", async () => {
    expect(await readJsonl(await fileWith(""), RecordSchema)).toEqual({ records: [], tornLastLine: null });
  });

  it("reads every newline-terminated line", async () => {
    const path = await fileWith('{"id":1,"text":"a"}\n{"id":2,"text":"b"}\n');
    expect(await readJsonl(path, RecordSchema)).toEqual({
      records: [
        { id: 1, text: "a" },
        { id: 2, text: "b" },
      ],
      tornLastLine: null,
    });
  });

  it("accepts a complete last line that lacks only its newline", async () => {
    const path = await fileWith('{"id":1,"text":"a"}\n{"id":2,"text":"b"}');
    const contents = await readJsonl(path, RecordSchema);
    expect(contents.records).toEqual([
      { id: 1, text: "a" },
      { id: 2, text: "b" },
    ]);
    expect(contents.tornLastLine).toBeNull();
  });

  it("reports a torn last line and reads the rest", async () => {
    const path = await fileWith('{"id":1,"text":"a"}\n{"id":2,"text":"b"}\n{"id":3,"te');
    expect(await readJsonl(path, RecordSchema)).toEqual({
      records: [
        { id: 1, text: "a" },
        { id: 2, text: "b" },
      ],
      tornLastLine: '{"id":3,"te',
    });
  });

  it("reports a file that is only a torn line", async () => {
    expect(await readJsonl(await fileWith('{"id":'), RecordSchema)).toEqual({ records: [], tornLastLine: '{"id":' });
  });

  it("throws CorruptJsonlError naming the line of a corrupt line in the middle", async () => {
    const path = await fileWith('{"id":1,"text":"a"}\n{"id":2,"te\n{"id":3,"text":"c"}\n');
    const error = await corruptError(readJsonl(path, RecordSchema));
    expect(error.lineNumber).toBe(2);
    expect(error.path).toBe(path);
    expect(error.message).toContain(`${path}:2:`);
  });

  it("treats a corrupt last line that is newline-terminated as corrupt, not torn", async () => {
    const path = await fileWith('{"id":1,"text":"a"}\n{"id":2,"te\n');
    expect((await corruptError(readJsonl(path, RecordSchema))).lineNumber).toBe(2);
  });

  it("treats an empty line in the middle as corrupt", async () => {
    const path = await fileWith('{"id":1,"text":"a"}\n\n{"id":3,"text":"c"}\n');
    expect((await corruptError(readJsonl(path, RecordSchema))).lineNumber).toBe(2);
  });

  it("throws CorruptJsonlError naming the line and field of a schema mismatch", async () => {
    const path = await fileWith('{"id":1,"text":"a"}\n{"id":2,"text":"b"}\n{"id":"three","text":"c"}\n');
    const error = await corruptError(readJsonl(path, RecordSchema));
    expect(error.lineNumber).toBe(3);
    expect(error.message).toMatch(/:3: not a valid JSON line \(id: /);
  });

  it("reports a schema mismatch at the root as (root)", async () => {
    const path = await fileWith("[1,2]\n");
    const error = await corruptError(readJsonl(path, RecordSchema));
    expect(error.lineNumber).toBe(1);
    expect(error.message).toContain("(root)");
  });

  it("returns the schema's output (defaults applied)", async () => {
    const schema = z.object({ id: z.number(), tags: z.array(z.string()).default([]) });
    const path = await fileWith('{"id":1}\n{"id":2,"tags":["x"]}\n');
    expect((await readJsonl(path, schema)).records).toEqual([
      { id: 1, tags: [] },
      { id: 2, tags: ["x"] },
    ]);
  });

  it("rejects a missing file", async () => {
    await expect(readJsonl(join(directory, "missing.jsonl"), RecordSchema)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("readJsonl after a writer is killed with SIGKILL", () => {
  const PAYLOAD_LENGTH = 6000;
  const LineSchema = z.object({
    seq: z.number().int().min(0),
    payload: z.string().length(PAYLOAD_LENGTH),
    nested: z.object({ values: z.array(z.number()), label: z.string() }),
  });

  // Writes JSON lines forever, one fs.writeSync per line; says "ready" once 200 lines are out.
  const WRITER = `
    import fs from "node:fs";
    const fd = fs.openSync(process.env.JSONL_PATH, "a");
    const payload = "x".repeat(${PAYLOAD_LENGTH});
    for (let seq = 0; ; seq++) {
      const line = JSON.stringify({ seq, payload, nested: { values: [seq, seq * 2, seq * 3], label: "line " + seq } }) + "\\n";
      fs.writeSync(fd, line);
      if (seq === 199) process.stdout.write("ready\\n");
    }
  `;

  it("keeps every complete line intact and reports the torn tail", async () => {
    const path = join(directory, "killed.jsonl");
    const child = spawn(process.execPath, ["--input-type=module", "-e", WRITER], {
      env: { ...process.env, JSONL_PATH: path },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      // Event-driven: the writer announces 200 lines on stdout. The timer only bounds a broken child.
      await new Promise<void>((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error(`writer never became ready; stderr: ${stderr}`)), 20_000);
        child.stdout.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("ready")) {
            clearTimeout(timeout);
            resolve();
          }
        });
        void exited.then(() => {
          clearTimeout(timeout);
          reject(new Error(`writer exited early; stderr: ${stderr}`));
        });
      });
      child.kill("SIGKILL");
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    expect(await exited).toBe("SIGKILL");

    const text = readFileSync(path, "utf8");
    const complete = text.split("\n").length - 1;
    const tail = text.slice(text.lastIndexOf("\n") + 1);
    expect(complete).toBeGreaterThanOrEqual(200);

    // As the kill left it. A tail is either torn (unparsable) or, rarely, a whole line minus its newline.
    const tailIsRecord = tail !== "" && LineSchema.safeParse(safeJsonParse(tail)).success;
    const killed = await readJsonl(path, LineSchema);
    expect(killed.records).toHaveLength(complete + (tailIsRecord ? 1 : 0));
    expect(killed.tornLastLine).toBe(tail === "" || tailIsRecord ? null : tail);
    killed.records.forEach((record, index) => {
      expect(record.seq).toBe(index);
      expect(record.nested).toEqual({ values: [index, index * 2, index * 3], label: `line ${index}` });
    });

    // Simulate a kill in the middle of the next write: half a line, no newline.
    const next = JSON.stringify({ seq: complete, payload: "y".repeat(PAYLOAD_LENGTH), nested: { values: [], label: "" } });
    const half = next.slice(0, Math.floor(next.length / 2));
    appendFileSync(path, half);
    const torn = await readJsonl(path, LineSchema);
    expect(torn.records).toHaveLength(complete);
    expect(torn.records.map((record) => record.seq)).toEqual(Array.from({ length: complete }, (_, index) => index));
    expect(torn.tornLastLine).toBe(tail + half);
  });
});

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
