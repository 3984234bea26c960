import { describe, expect, it } from "vitest";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { DreamWorkspace } from "../../../src/dream/cycle/dream-workspace.js";
import { runDreamCycle, type DreamCycleOptions } from "../../../src/dream/cycle/run-dream-cycle.js";
import { clientDreamSolver } from "../../../src/dream/solver/dream-solver.js";
import type { ScriptedRule } from "../../../src/inference/scripted-inference-client.js";
import { RIGHT_SOLUTION, scriptedClient, steppingClock, SUM_SETUP, SUM_VALIDATOR, sumTemplate, temporaryFolder, WRONG_SOLUTION } from "./cycle-helpers.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });
const isGenerator = (request: GenerationRequest) => request.messages.some((message) => message.content.includes("self-checking JavaScript"));

/** A workspace whose only cluster (data-analysis) is saturated: two clean outcomes in a row. */
async function saturatedWorkspace() {
  const now = steppingClock();
  const workspace = await DreamWorkspace.open(temporaryFolder(), { seed: 5, now });
  workspace.frontier.record({ cluster: "data-analysis", firstAttemptRate: 1, successRate: 1, challengeHash: "a" });
  workspace.frontier.record({ cluster: "data-analysis", firstAttemptRate: 1, successRate: 1, challengeHash: "b" });
  expect(workspace.frontier.isSaturated("data-analysis")).toBe(true);
  return { workspace, now };
}

async function cycle(rules: ScriptedRule[], extra: Partial<DreamCycleOptions> = {}) {
  const { workspace, now } = await saturatedWorkspace();
  const client = scriptedClient(rules);
  const record = await runDreamCycle({ workspace, client, solver: clientDreamSolver(client), sandbox, templates: [sumTemplate()], clusters: ["data-analysis"], seed: 5, now, ...extra });
  await workspace.close();
  return { record, workspace, client };
}

const RANDOM_VALIDATOR = SUM_VALIDATOR.replace("const expected = ", "const expected = Math.random() < 2 && ");
const generated = (validator: string) => JSON.stringify({ cluster: "data-analysis", prompt: "numbers.txt holds one integer per line; write their total to sum.json.", setup: SUM_SETUP, validator, outputFile: "sum.json" });

describe("a dream cycle when every cluster is saturated", () => {
  it("gives up after the generator's junk is rejected three times (what the tiny base writes)", async () => {
    const { record, client } = await cycle([{ when: isGenerator, reply: "5+5=10" }], { routing: { journalProbability: 0, templateProbability: 0 } });
    expect(record).toMatchObject({ status: "no-challenge", source: "generated", challenge: null, attempts: [] });
    expect(record.rejections.map((rejection) => rejection.kind)).toEqual(["malformed", "malformed", "malformed"]);
    // Each generation resamples once after invalid JSON (2 samples), three generations.
    expect(client.requests.filter(isGenerator)).toHaveLength(6);
    expect(client.requests[0]?.messages[1]?.content).toContain("DIVERSITY REQUIREMENT");
    expect(client.requests[0]?.messages[1]?.content).toContain("Do NOT write a data-analysis");
  });

  it("regenerates a challenge whose validator uses randomness, with the rejection as feedback, then solves the next one", async () => {
    let generations = 0;
    const { record, client } = await cycle(
      [
        { when: isGenerator, reply: () => generated(generations++ === 0 ? RANDOM_VALIDATOR : SUM_VALIDATOR) },
        { when: () => true, reply: RIGHT_SOLUTION },
      ],
      { routing: { journalProbability: 0, templateProbability: 0 } },
    );
    expect(record.rejections.map((rejection) => rejection.kind)).toEqual(["randomness"]);
    expect(record).toMatchObject({ status: "passed", source: "generated" });
    expect(client.requests.filter(isGenerator)[1]?.messages[1]?.content).toContain("Your previous challenge was rejected");
  });

  it("retries a journal failure when mining is certain, and rotates to another cluster's template when the coin says so", async () => {
    const { workspace, now } = await saturatedWorkspace();
    const client = scriptedClient([{ when: () => true, reply: WRONG_SOLUTION }]);
    const options = { workspace, client, solver: clientDreamSolver(client), sandbox, clusters: ["data-analysis" as const], seed: 5, now };
    // Cycle 0: a template of another cluster (the real templates), failed by the wrong solution, journalled.
    const rotated = await runDreamCycle({ ...options, routing: { journalProbability: 0, templateProbability: 1 } });
    expect(rotated.source).toBe("template-other-cluster");
    expect(rotated.challenge?.cluster).not.toBe("data-analysis");
    expect(rotated.status).toBe("failed");
    // Cycle 1: the journal holds that failure in an unsaturated cluster: it is retried as it was.
    const mined = await runDreamCycle({ ...options, routing: { journalProbability: 1 } });
    expect(mined).toMatchObject({ source: "journal", status: "failed" });
    expect(mined.challenge?.prompt).toBe(rotated.challenge?.prompt);
    // A retry is a re-roll of the failed challenge: the outcome is recorded, the mastery counters are not bumped.
    expect(mined.duplicate).toBe(true);
    const cluster = rotated.challenge?.cluster ?? "";
    expect(workspace.frontier.clusterStats(cluster)).toMatchObject({ runs: 1, outcomes: 2 });
    await workspace.close();
  });

  it("asks the generator for a variation, briefed with every error, of a challenge the journal records failing twice", async () => {
    const { workspace, now } = await saturatedWorkspace();
    const failed = { challenge: { hash: "feedc0de", prompt: "Count the ERROR lines of app.log into counts.json.", setup: SUM_SETUP, validator: SUM_VALIDATOR, source: "generated" }, cluster: "regex-parse", attempts: 3 };
    await workspace.journal.append({ ...failed, errorSummary: "TypeError: first", failedAt: now().toISOString() });
    await workspace.journal.append({ ...failed, errorSummary: "SyntaxError: second", failedAt: now().toISOString() });
    const client = scriptedClient([{ when: isGenerator, reply: "{}" }]);
    const record = await runDreamCycle({ workspace, client, solver: clientDreamSolver(client), sandbox, templates: [sumTemplate()], clusters: ["data-analysis"], seed: 5, now, routing: { journalProbability: 1 } });
    expect(record).toMatchObject({ status: "no-challenge", source: "journal" });
    const brief = client.requests[0]?.messages[1]?.content ?? "";
    expect(brief).toContain("JOURNAL SEED (vary, cluster regex-parse, failed 2 time(s))");
    expect(brief).toContain("1. TypeError: first\n2. SyntaxError: second");
    await workspace.close();
  });
});
