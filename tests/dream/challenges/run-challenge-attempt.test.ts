import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FixtureSnapshotTooLargeError } from "../../../src/dream/errors/index.js";
import { FIXTURE_SNAPSHOT_LIMITS, takeFixtureSnapshot } from "../../../src/dream/challenges/fixture-snapshot.js";
import { ChallengeSchema, challengeId, type Challenge } from "../../../src/dream/challenges/challenge.js";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { runChallengeAttempt } from "../../../src/dream/challenges/run-challenge-attempt.js";
import { CORRECT_SOLUTION, CORRECT_VALIDATOR, CRAFTED_SETUP } from "../gates/crafted-challenge.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });
const content = { cluster: "data-analysis", tier: "basic", prompt: "Write rate.json.", setup: CRAFTED_SETUP, validator: CORRECT_VALIDATOR, outputFile: "rate.json", source: "template" } as const;
const challenge: Challenge = ChallengeSchema.parse({ id: challengeId(content), ...content });

describe("runChallengeAttempt", () => {
  it("runs setup, solution and validator in the sandbox and passes a right answer", async () => {
    const result = await runChallengeAttempt(challenge, CORRECT_SOLUTION, sandbox);
    expect(result).toMatchObject({ passed: true, stoppedAt: "validator", output: '{"rate":40}', verdict: { kind: "passed" } });
    expect(result.setup.exitCode).toBe(0);
    expect(result.solution?.exitCode).toBe(0);
  });

  it("fails a wrong answer and an absent output", async () => {
    const wrong = await runChallengeAttempt(challenge, `require("fs").writeFileSync("rate.json", '{"rate":41}');`, sandbox);
    expect(wrong).toMatchObject({ passed: false, verdict: { kind: "failed" } });
    expect(await runChallengeAttempt(challenge, "", sandbox)).toMatchObject({ passed: false, output: null });
  });

  it("hands the validator the fixtures as the setup wrote them, not as the solution left them", async () => {
    const tamper = `const fs = require("fs");
fs.writeFileSync("deals.csv", "id,stage\\n0,won\\n");
fs.writeFileSync("rate.json", JSON.stringify({ rate: 100 }));`;
    expect(await runChallengeAttempt(challenge, tamper, sandbox)).toMatchObject({ passed: false });
  });

  it("does not follow a symlinked output file out of the directory", async () => {
    const link = `require("fs").symlinkSync("/etc/hostname", "rate.json");`;
    expect(await runChallengeAttempt(challenge, link, sandbox)).toMatchObject({ passed: false, output: null });
  });

  it("stops at the setup when the setup fails", async () => {
    const broken = { ...challenge, setup: "process.exit(3);" };
    expect(await runChallengeAttempt(broken, CORRECT_SOLUTION, sandbox)).toMatchObject({ passed: false, stoppedAt: "setup", solution: null, validator: null });
  });

  it("gives the same content the same id and different content another", () => {
    expect(challengeId(content)).toBe(challenge.id);
    expect(challengeId({ ...content, prompt: "Write rate.json!" })).not.toBe(challenge.id);
    expect(() => ChallengeSchema.parse({ ...challenge, outputFile: "../x.json" })).toThrow(/plain file name/);
  });
});

describe("the fixture snapshot's caps", () => {
  it("rejects a setup that leaves more bytes or files than a snapshot may hold, by name, before reading them", async () => {
    const folder = await mkdtemp(join(tmpdir(), "fixture-caps-"));
    try {
      await writeFile(join(folder, "a.txt"), "12345");
      await mkdir(join(folder, "nested"));
      await writeFile(join(folder, "nested", "b.txt"), "678");
      expect([...(await takeFixtureSnapshot(folder, { maxBytes: 8, maxFiles: 2 })).keys()].sort()).toEqual(["a.txt", "nested/b.txt"]);
      await expect(takeFixtureSnapshot(folder, { maxBytes: 7, maxFiles: 2 })).rejects.toThrow(FixtureSnapshotTooLargeError);
      await expect(takeFixtureSnapshot(folder, { maxBytes: 8, maxFiles: 1 })).rejects.toThrow(/limit of 1 files/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("stops the attempt at the setup, naming the breach, when the setup writes past the limits", async () => {
    const flood = { ...challenge, setup: `const fs = require("fs"); for (let i = 0; i < ${FIXTURE_SNAPSHOT_LIMITS.maxFiles + 10}; i += 1) fs.writeFileSync("f" + i, "");` };
    const result = await runChallengeAttempt(flood, CORRECT_SOLUTION, createChallengeSandbox({ timeoutMs: 20_000, maxFiles: FIXTURE_SNAPSHOT_LIMITS.maxFiles + 100 }));
    expect(result).toMatchObject({ passed: false, stoppedAt: "setup", setup: { status: "failed", reason: "fixture-snapshot-too-large" } });
    expect(result.setup.stderr).toMatch(/limit of 4096 files/);
  });
});
