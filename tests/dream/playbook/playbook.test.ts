import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { LessonNotAdmittedError } from "../../../src/dream/playbook/errors/lesson-not-admitted-error.js";
import { UnknownLessonError } from "../../../src/dream/playbook/errors/unknown-lesson-error.js";
import { lessonId } from "../../../src/dream/playbook/lesson-id.js";
import { Playbook } from "../../../src/dream/playbook/playbook.js";
import { PlaybookFileSchema } from "../../../src/dream/playbook/playbook-file.js";
import { keptVerdict, lesson, SOURCE, steppingClock, temporaryPath } from "./playbook-helpers.js";

describe("Playbook", () => {
  it("admits a lesson that passed both gates and writes it at once", async () => {
    const path = temporaryPath("playbook.json");
    const playbook = await Playbook.open(path, { now: steppingClock() });
    const result = await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    expect(result).toMatchObject({ added: true, displaced: null, entry: { id: lessonId(lesson(1)), uses: 0, helped: 0, addedAt: "1970-01-01T00:00:00.000Z" } });
    const file = PlaybookFileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    expect(file.live.map((entry) => entry.lesson)).toEqual([lesson(1)]);
    const reopened = await Playbook.open(path);
    expect(reopened.live).toEqual(playbook.live);
  });

  it("refuses a lesson verify-helpful dropped", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    const verdict = { ...keptVerdict(lesson(1)), kept: false, reason: "not-better" as const };
    await expect(playbook.admit(verdict, SOURCE)).rejects.toMatchObject({ name: "LessonNotAdmittedError", gate: "verify-helpful", reason: "not-better" });
    expect(playbook.live).toEqual([]);
  });

  it("refuses a kept lesson that copies its validator: the guard runs again at the door", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    const copying = { ...lesson(1), correctPattern: "make sure that if (totals.north !== 3) process.exit(1) cannot fire" };
    const error = await playbook.admit(keptVerdict(copying), SOURCE).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LessonNotAdmittedError);
    expect(error).toMatchObject({ gate: "generalization-guard", reason: "pattern-copies-validator" });
  });

  it("refuses a lesson checked against another challenge than its own", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    await expect(playbook.admit(keptVerdict(lesson(1)), { ...SOURCE, challengeHash: "other" })).rejects.toBeInstanceOf(LessonNotAdmittedError);
  });

  it("keeps one entry for a lesson learnt twice", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    const again = await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    expect(again.added).toBe(false);
    expect(playbook.live).toHaveLength(1);
  });

  it("at the cap, retires the lowest usage score (the oldest among equals) into the retired section", async () => {
    const path = temporaryPath("playbook.json");
    const playbook = await Playbook.open(path, { settings: { maxLiveLessons: 3, retireAfterUses: 100 }, now: steppingClock() });
    for (const index of [1, 2, 3]) await playbook.admit(keptVerdict(lesson(index)), SOURCE);
    const [first, second, third] = playbook.live.map((entry) => entry.id) as [string, string, string];
    await playbook.recordUsage([first, third], true); // scores: first 2/3, second 1/2, third 2/3
    await playbook.recordUsage([second], false); // second 1/3: the lowest
    const result = await playbook.admit(keptVerdict(lesson(4)), SOURCE);
    expect(result.displaced).toMatchObject({ id: second, retiredReason: "displaced-at-cap", uses: 1, helped: 0 });
    expect(playbook.live.map((entry) => entry.id)).toEqual([first, third, lessonId(lesson(4))]);
    // An unused lesson scores 1/2: below the two that helped, so it is the next to go.
    const next = await playbook.admit(keptVerdict(lesson(5)), SOURCE);
    expect(next.displaced?.id).toBe(lessonId(lesson(4)));
    const file = PlaybookFileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    expect(file.live).toHaveLength(3);
    expect(file.retired.map((entry) => entry.id)).toContain(second);
  });

  it("among equal scores, displaces the oldest", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"), { settings: { maxLiveLessons: 2 } });
    await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    await playbook.admit(keptVerdict(lesson(2)), SOURCE);
    const result = await playbook.admit(keptVerdict(lesson(3)), SOURCE);
    expect(result.displaced?.id).toBe(lessonId(lesson(1)));
  });

  it("retires a lesson used retireAfterUses times with a help rate below minimumHelpRate, and no sooner", async () => {
    const path = temporaryPath("playbook.json");
    const playbook = await Playbook.open(path, { settings: { retireAfterUses: 4, minimumHelpRate: 0.5 }, now: steppingClock() });
    await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    await playbook.admit(keptVerdict(lesson(2)), SOURCE);
    const [weak, strong] = playbook.live.map((entry) => entry.id) as [string, string];
    await playbook.recordUsage([weak, strong], true);
    for (let cycle = 0; cycle < 2; cycle++) expect(await playbook.recordUsage([weak], false)).toEqual([]);
    await playbook.recordUsage([strong], true);
    await playbook.recordUsage([strong], false);
    // weak: 1 help in 4 uses (0.25 < 0.5) retires; strong: 2 in 3 uses, then 2 in 4 (0.5, not below) stays.
    const retired = await playbook.recordUsage([weak, strong], false);
    expect(retired.map((entry) => entry.id)).toEqual([weak]);
    expect(retired[0]).toMatchObject({ uses: 4, helped: 1, retiredReason: "stopped-helping", retiredAt: expect.any(String) as string });
    expect(playbook.live.map((entry) => entry.id)).toEqual([strong]);
    const reopened = await Playbook.open(path);
    expect(reopened.retired.map((entry) => entry.id)).toEqual([weak]);
    expect(reopened.live[0]).toMatchObject({ uses: 4, helped: 2 });
  });

  it("names an unknown lesson id", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    await expect(playbook.recordUsage(["nope"], true)).rejects.toBeInstanceOf(UnknownLessonError);
  });

  it("renders the prompt block for a cluster's domains only", async () => {
    const playbook = await Playbook.open(temporaryPath("playbook.json"));
    await playbook.admit(keptVerdict(lesson(1, ["data-analysis"])), SOURCE);
    await playbook.admit(keptVerdict(lesson(2, ["concurrency"])), SOURCE);
    expect(playbook.entriesFor(["concurrency"]).map((entry) => entry.lesson)).toEqual([lesson(2, ["concurrency"])]);
    expect(playbook.prompt(["concurrency"])).toContain("Technique 2");
    expect(playbook.prompt(["concurrency"])).not.toContain("Technique 1");
    expect(playbook.prompt(["regex-parse"])).toBe("");
  });

  it("names the bad setting and the bad field of a corrupt file", async () => {
    await expect(Playbook.open(temporaryPath("playbook.json"), { settings: { maxLiveLessons: 0 } })).rejects.toThrow(/playbook\.settings\.maxLiveLessons/);
    const path = temporaryPath("playbook.json");
    const playbook = await Playbook.open(path);
    await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    const { writeFileSync } = await import("node:fs");
    const file = JSON.parse(readFileSync(path, "utf8")) as { live: { uses: number }[] };
    (file.live[0] as { uses: number }).uses = -1;
    writeFileSync(path, JSON.stringify(file));
    await expect(Playbook.open(path)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(Playbook.open(path)).rejects.toThrow(/live\.0\.uses/);
    writeFileSync(path, "{torn");
    await expect(Playbook.open(path)).rejects.toThrow(/playbook\.json: expected a playbook JSON file/);
  });

  it("lands the latest state on disk when changes overlap", async () => {
    const path = temporaryPath("playbook.json");
    const playbook = await Playbook.open(path);
    await playbook.admit(keptVerdict(lesson(1)), SOURCE);
    const id = playbook.live[0]?.id as string;
    await Promise.all([playbook.recordUsage([id], true), playbook.admit(keptVerdict(lesson(2)), SOURCE), playbook.recordUsage([id], false)]);
    const file = PlaybookFileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    expect(file.live).toHaveLength(2);
    expect(file.live[0]).toMatchObject({ uses: 2, helped: 1 });
  });
});
