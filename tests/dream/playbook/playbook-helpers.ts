import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GeneralizationSource } from "../../../src/dream/lessons/generalization-guard.js";
import type { LessonDomain } from "../../../src/dream/lessons/lesson-domains.js";
import type { Lesson } from "../../../src/dream/lessons/lesson.js";
import type { HelpfulVerdict } from "../../../src/dream/lessons/verify-lesson-helpful.js";

export const SOURCE: GeneralizationSource = {
  prompt: "Sum the amount column of sales.csv per region and write totals.json.",
  setup: 'require("node:fs").writeFileSync("sales.csv", "region,amount\\nnorth,3\\nsouth,4\\n");',
  validator: 'const totals = JSON.parse(require("node:fs").readFileSync("totals.json", "utf8")); if (totals.north !== 3) process.exit(1);',
  challengeHash: "feed01",
};

/** A distinct general lesson numbered `index`. */
export function lesson(index: number, domains: LessonDomain[] = ["data-analysis"]): Lesson {
  return {
    trigger: `Situation ${index}: aggregating tabular input with a header row`,
    antiPattern: `Mistake ${index}: treating the header as data`,
    correctPattern: `Technique ${index}: drop the first line before converting fields to numbers`,
    domains,
    confidence: 0.7,
    sourceChallengeHash: SOURCE.challengeHash,
  };
}

export function keptVerdict(value: Lesson): HelpfulVerdict {
  return { lesson: value, kept: true, reason: "first-try-pass", original: { passed: true, attemptsUsed: 2 }, verify: { passed: true, attemptsUsed: 1 } };
}

export function temporaryPath(name: string): string {
  return join(mkdtempSync(join(tmpdir(), "dream-playbook-")), name);
}

/** A clock that advances one second per reading from the epoch. */
export function steppingClock(): () => Date {
  let seconds = 0;
  return () => new Date(1000 * seconds++);
}
