import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { DreamWorkspace } from "../../../src/dream/cycle/dream-workspace.js";
import { runDreamCycle } from "../../../src/dream/cycle/run-dream-cycle.js";
import { clientDreamSolver } from "../../../src/dream/solver/dream-solver.js";
import { CRASH_ON_REPORT_VALIDATOR, LESSON, scriptedClient, steppingClock, struggledThenWonRules, sumTemplate, temporaryFolder, WRONG_SOLUTION } from "./cycle-helpers.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });

async function cycle(rules: Parameters<typeof scriptedClient>[0], templates = [sumTemplate()], folder = temporaryFolder()) {
  const now = steppingClock();
  const workspace = await DreamWorkspace.open(folder, { seed: 7, now });
  const client = scriptedClient(rules);
  const record = await runDreamCycle({ workspace, client, solver: clientDreamSolver(client), sandbox, templates, seed: 7, now });
  return { record, workspace, client, folder };
}

describe("runDreamCycle", () => {
  it("turns a struggled-then-won cycle into a lesson that passes verify-helpful", async () => {
    const { record, workspace, folder, client } = await cycle(struggledThenWonRules());
    expect(record.status).toBe("passed");
    // verify-helpful's re-run: the original's first solver call with the lesson block added, same sampler seed.
    const solverCalls = client.requests.filter((request) => request.messages.some((message) => message.content.includes("### TASK:")));
    const rerun = solverCalls.find((request) => request.messages[1]?.content.startsWith("### SKILL PLAYBOOK:"));
    expect(rerun?.sampler.seed).toBe(solverCalls[0]?.sampler.seed);
    expect(rerun?.messages[1]?.content.endsWith(solverCalls[0]?.messages[1]?.content ?? "(none)")).toBe(true);
    expect(record.source).toBe("template");
    expect(record.attempts.map((attempt) => attempt.passed)).toEqual([false, true]);
    expect(record.lesson).toBe("admitted");
    expect(workspace.playbook.live.map((entry) => entry.lesson.trigger)).toEqual([LESSON.trigger]);
    expect(workspace.frontier.clusterStats("data-analysis")).toMatchObject({ runs: 1, firstAttemptWins: 0 });
    expect(workspace.journal.runs).toHaveLength(0);
    await workspace.close();
    const lines = readFileSync(join(folder, "cycles.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    const trajectories = readFileSync(join(folder, "trajectories.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as { label: number });
    expect(trajectories.map((example) => example.label)).toEqual([1, 0, 1]);
    // The next cycle's solver sees the lesson, wins first try, and the lesson's use counts as a help.
    const next = await cycle(struggledThenWonRules(), [sumTemplate(), sumTemplate("data-analysis/sum-again")], folder);
    expect(next.record.lessonsUsed).toHaveLength(1);
    expect(next.record.attempts.map((attempt) => attempt.passed)).toEqual([true]);
    expect(next.workspace.playbook.live[0]).toMatchObject({ uses: 1, helped: 1 });
    await next.workspace.close();
  });

  it("aborts after attempt 1 when the validator crashes on its own code, and journals nothing", async () => {
    const { record, workspace } = await cycle(
      [{ when: () => true, reply: WRONG_SOLUTION }],
      [sumTemplate("data-analysis/crash", CRASH_ON_REPORT_VALIDATOR)],
    );
    expect(record.status).toBe("aborted");
    expect(record.abortedBy).toBe("validator-internal");
    expect(record.attempts).toHaveLength(1);
    expect(workspace.journal.runs).toHaveLength(0);
    await workspace.close();
  });

  it("records a failure of all three attempts in the journal and the frontier", async () => {
    const { record, workspace } = await cycle([{ when: () => true, reply: WRONG_SOLUTION }]);
    expect(record.status).toBe("failed");
    expect(record.attempts).toHaveLength(3);
    expect(workspace.journal.runs).toHaveLength(1);
    expect(workspace.journal.runs[0]).toMatchObject({ cluster: "data-analysis", attempts: 3, failedAt: "2026-01-01T00:00:01.000Z" });
    expect(workspace.frontier.clusterStats("data-analysis")).toMatchObject({ runs: 1, firstAttemptWins: 0, outcomes: 1 });
    await workspace.close();
  });
});
