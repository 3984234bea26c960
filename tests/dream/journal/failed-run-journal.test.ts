import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CorruptJsonlError, InvalidInputError } from "../../../src/core/errors/index.js";
import { ReadOnlyJournalError } from "../../../src/dream/journal/errors/read-only-journal-error.js";
import { FailedRunJournal } from "../../../src/dream/journal/failed-run-journal.js";
import { failedRun, temporaryPath } from "./journal-helpers.js";

describe("FailedRunJournal", () => {
  it("appends one JSON line per failed run and reads them back after reopening", async () => {
    const path = temporaryPath("journal.jsonl");
    const journal = await FailedRunJournal.open(path);
    await journal.append(failedRun("a"));
    await journal.append(failedRun("b"));
    await journal.close();
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(3);
    const reopened = await FailedRunJournal.open(path);
    expect(reopened.runs).toEqual([failedRun("a"), failedRun("b")]);
    expect(reopened.droppedTornLine).toBeNull();
    await reopened.close();
  });

  it("survives a torn last line: drops it on open and the next append lands on a line of its own", async () => {
    const path = temporaryPath("journal.jsonl");
    writeFileSync(path, `${JSON.stringify(failedRun("a"))}\n`);
    const torn = JSON.stringify(failedRun("b")).slice(0, 40);
    // A killed writer may stop inside a multi-byte character.
    appendFileSync(path, Buffer.concat([Buffer.from(torn), Buffer.from("é").subarray(0, 1)]));
    const journal = await FailedRunJournal.open(path);
    expect(journal.droppedTornLine?.startsWith(torn)).toBe(true);
    expect(journal.runs).toEqual([failedRun("a")]);
    await journal.append(failedRun("c"));
    await journal.close();
    const reopened = await FailedRunJournal.open(path);
    expect(reopened.runs).toEqual([failedRun("a"), failedRun("c")]);
    await reopened.close();
  });

  it("still refuses a corrupt line before the last", async () => {
    const path = temporaryPath("journal.jsonl");
    writeFileSync(path, `{not json\n${JSON.stringify(failedRun("a"))}\n`);
    await expect(FailedRunJournal.open(path)).rejects.toBeInstanceOf(CorruptJsonlError);
  });

  it("validates a record before it reaches the file, naming the field", async () => {
    const path = temporaryPath("journal.jsonl");
    const journal = await FailedRunJournal.open(path);
    const error = await journal.append({ ...failedRun("a"), attempts: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe("failedRun.attempts");
    await journal.close();
    expect(readFileSync(path, "utf8")).toBe("");
  });

  it("gives the solver a read-only view: reads see new runs, writes throw ReadOnlyJournalError", async () => {
    const journal = await FailedRunJournal.open(temporaryPath("journal.jsonl"));
    const view = journal.readonlyView();
    expect(view.isReadOnly).toBe(true);
    await journal.append(failedRun("a"));
    expect(view.runs).toEqual([failedRun("a")]);
    expect(() => view.append()).toThrow(ReadOnlyJournalError);
    expect(() => view.close()).toThrow(/journal\.close: this is the solver's read-only view/);
    expect(() => {
      (view.runs[0] as { attempts: number }).attempts = 1;
    }).toThrow(TypeError);
    await journal.close();
  });
});
