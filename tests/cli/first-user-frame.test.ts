import { describe, expect, it } from "vitest";
import { firstUserFrame } from "../../src/cli/first-user-frame.js";

const OWN = ["/opt/selfplay/src/", "/opt/selfplay/dist/", "/opt/selfplay/node_modules/"];

describe("firstUserFrame", () => {
  it("passes over Node's and selfplay's frames and gives the first in a user's file, a file: URL as a path", () => {
    const stack = [
      "SyntaxError: Unexpected token 'a'",
      "    at JSON.parse (<anonymous>)",
      "    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)",
      "    at scoreRubric (/opt/selfplay/dist/src/tasks/dataset/dataset-rubric.js:66:21)",
      "    at Object.evaluate (file:///home/me/my%20env.js:12:34)",
      "    at /home/me/other.js:1:1",
    ].join("\n");
    expect(firstUserFrame(stack, OWN)).toBe("at Object.evaluate (/home/me/my env.js:12:34)");
  });

  it("keeps an anonymous frame's bare location", () => {
    expect(firstUserFrame("Error: x\n    at /opt/selfplay/src/a.ts:1:2\n    at file:///home/me/env.js:3:4", OWN)).toBe("at /home/me/env.js:3:4");
  });

  it("is undefined when every frame is selfplay's or Node's", () => {
    expect(firstUserFrame("Error: x\n    at f (/opt/selfplay/src/a.ts:1:2)\n    at node:internal/main:1:1\n    at new Promise (<anonymous>)", OWN)).toBeUndefined();
  });
});
