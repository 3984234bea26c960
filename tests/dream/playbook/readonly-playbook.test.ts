import { describe, expect, it } from "vitest";
import { ReadOnlyPlaybookError } from "../../../src/dream/playbook/errors/read-only-playbook-error.js";
import { Playbook } from "../../../src/dream/playbook/playbook.js";
import { keptVerdict, lesson, SOURCE, temporaryPath } from "./playbook-helpers.js";

describe("ReadonlyPlaybook", () => {
  it("reads what the playbook holds, live, and says it is read-only", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    const view = playbook.readonlyView();
    expect(view.isReadOnly).toBe(true);
    expect(playbook.isReadOnly).toBe(false);
    expect(view.live).toEqual([]);
    await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    expect(view.live).toEqual(playbook.live);
    expect(view.entriesFor(["data-analysis"])).toEqual(playbook.entriesFor(["data-analysis"]));
    expect(view.prompt(["data-analysis"])).toBe(playbook.prompt(["data-analysis"]));
    expect(view.retired).toEqual([]);
  });

  it("throws ReadOnlyPlaybookError on every write, naming it", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    const view = playbook.readonlyView();
    expect(() => view.admit()).toThrow(ReadOnlyPlaybookError);
    expect(() => view.recordUsage()).toThrow(/playbook\.recordUsage: this is the solver's read-only view/);
  });

  it("hands out frozen entries, so counts cannot be edited through them", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    const [entry] = playbook.readonlyView().live;
    expect(() => {
      (entry as { uses: number }).uses = 99;
    }).toThrow(TypeError);
    expect(() => (entry?.lesson.domains as string[]).push("algorithms")).toThrow(TypeError);
    expect(playbook.live[0]?.uses).toBe(0);
  });
});
