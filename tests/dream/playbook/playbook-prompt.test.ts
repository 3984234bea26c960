import { describe, expect, it } from "vitest";
import { PLAYBOOK_HEADER, playbookPrompt } from "../../../src/dream/playbook/playbook-prompt.js";
import { lesson } from "./playbook-helpers.js";

describe("playbookPrompt", () => {
  it("renders the lessons sharing a domain under the seed's header, in order", () => {
    const lessons = [lesson(1, ["data-analysis"]), lesson(2, ["concurrency", "node-general"]), lesson(3, ["node-general"])];
    expect(PLAYBOOK_HEADER).toBe("### SKILL PLAYBOOK:");
    expect(playbookPrompt(lessons, ["node-general"])).toBe(
      [
        "### SKILL PLAYBOOK:",
        "- When: Situation 2: aggregating tabular input with a header row",
        "  Avoid: Mistake 2: treating the header as data",
        "  Instead: Technique 2: drop the first line before converting fields to numbers",
        "- When: Situation 3: aggregating tabular input with a header row",
        "  Avoid: Mistake 3: treating the header as data",
        "  Instead: Technique 3: drop the first line before converting fields to numbers",
        "",
      ].join("\n"),
    );
  });

  it("is empty, header included, when no lesson applies", () => {
    expect(playbookPrompt([lesson(1)], ["algorithms"])).toBe("");
    expect(playbookPrompt([], ["algorithms"])).toBe("");
  });
});
