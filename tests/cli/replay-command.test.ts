import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultExploitPaths } from "../../src/tournament/exploits/exploit-paths.js";
import { recordExploit } from "../../src/tournament/exploits/record-exploit.js";
import { loadShippedKernels } from "../../src/tournament/exploits/shipped-kernels.js";
import { shrinkTranscript } from "../../src/tournament/exploits/shrink-transcript.js";
import { writeExploitCandidate } from "../../src/tournament/exploits/write-exploit-candidate.js";
import { runCli } from "../helpers/run-cli.js";
import { plantedEmergencyChain } from "../tournament/exploits/emergency-chain-transcript.js";

const root = resolve(import.meta.dirname, "../..");
const kernel010 = join(root, "constitutions/constitution-0.1.0.yaml");
const kernel020 = join(root, "constitutions/constitution-0.2.0.yaml");
let folder: string;
let noisy: string;
let shrunkPath: string;
let candidatePath: string;
let recordPath: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-replay-cli-"));
  const kernels = await loadShippedKernels(join(root, "constitutions"));
  const kernel = kernels.get("0.1.0")!;
  // A hand-built chain of emergencies (not a search finding).
  const planted = plantedEmergencyChain(kernel, { seed: 2, noiseSeed: 102 });
  const claim = { objective: "exit-blocking" as const, redTeam: ["c0", "c1"] };
  const shrunk = shrinkTranscript(planted.transcript, kernel, claim);
  noisy = join(folder, "noisy.json");
  shrunkPath = join(folder, "shrunk.json");
  candidatePath = join(folder, "candidate.json");
  await writeFile(noisy, JSON.stringify(planted.transcript));
  await writeFile(shrunkPath, JSON.stringify(shrunk.transcript));
  await writeExploitCandidate(candidatePath, { objective: "exit-blocking", redTeam: ["c0", "c1"], transcript: planted.transcript, foundBy: { searchObjective: "exit-blocking", searchSeed: 2 } });
  const paths = { ...defaultExploitPaths(root), exploitsDirectory: join(folder, "exploits"), testsDirectory: join(folder, "tests"), kernelsDirectory: join(folder, "kernels") };
  await mkdir(paths.kernelsDirectory);
  for (const file of [kernel010, kernel020]) await copyFile(file, join(paths.kernelsDirectory, file.split("/").pop()!));
  const foundBy = { searchObjective: "exit-blocking" as const, searchSeed: 2, originalLength: shrunk.originalLength, originalCoreLength: shrunk.originalCoreLength, shrunkLength: shrunk.transcript.actions.length, coreLength: shrunk.coreLength, shrinkReplays: shrunk.replays };
  recordPath = (await recordExploit({ transcript: shrunk.transcript, claim, kernels, foundBy, paths })).recordPath;
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("selfplay replay", () => {
  it("prints rejections, findings, the event-log hash and the final treasury of a transcript", async () => {
    const { code, stdout } = await runCli(["replay", noisy, "--kernel", kernel010, "--red-team", "c0,c1"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^replay .*noisy\.json \(transcript, recorded under 0\.1\.0\) under kernel 0\.1\.0 \(sha256 [0-9a-f]{12}…\)\n {2}\d+ actions, [1-9]\d* rejected, \d+ rounds completed\n {2}event-log hash [0-9a-f]{64}\n {2}final treasury \d+\n/);
    expect(stdout).toMatch(/exit-blocking, round \d+: c2's exit, queued in round \d, was still waiting after 4 rounds/);
    expect(stdout).toMatch(/emergency-overstay, round \d+/);
  });

  it("gives the same outcome in --json every time (the outcome depends only on transcript and kernel text)", async () => {
    const first = JSON.parse((await runCli(["replay", shrunkPath, "--kernel", kernel010, "--red-team", "c0,c1", "--json"])).stdout);
    const second = JSON.parse((await runCli(["replay", shrunkPath, "--kernel", kernel010, "--red-team", "c0,c1", "--json"])).stdout);
    expect(second).toEqual(first);
    expect(first).toMatchObject({ kind: "transcript", kernelVersion: "0.1.0", rejected: 0, finalTreasury: expect.any(Number), redTeam: ["c0", "c1"], claim: null });
    expect(first.findings.map((finding: { objective: string }) => finding.objective).sort()).toEqual(["emergency-overstay", "exit-blocking"]);
  });

  it("replays a record: open under its kernel with the stored hash, closed under 0.2.0 across versions", async () => {
    const own = await runCli(["replay", recordPath, "--kernel", kernel010]);
    expect(own.code).toBe(0);
    expect(own.stdout).toContain("exit-blocking: open under 0.1.0 (as recorded); event-log hash matches the record");
    const amended = await runCli(["replay", recordPath, "--kernel", kernel020, "--across-versions", "--json"]);
    expect(amended.code).toBe(0);
    expect(JSON.parse(amended.stdout)).toMatchObject({ kind: "record", transcriptKernelVersion: "0.1.0", kernelVersion: "0.2.0", rejected: expect.any(Number), claim: { objective: "exit-blocking", status: "closed", expected: "closed", eventLogHashMatches: null } });
    expect(JSON.parse(amended.stdout).rejected).toBeGreaterThan(0);
  });

  it("replays a candidate a tournament wrote, judged for its own red team", async () => {
    const { code, stdout } = await runCli(["replay", candidatePath, "--kernel", kernel010, "--json"]);
    expect(code).toBe(0);
    // The candidate holds rejected submissions, so the exploit does not count as open until it is shrunk.
    expect(JSON.parse(stdout)).toMatchObject({ kind: "candidate", redTeam: ["c0", "c1"], claim: { objective: "exit-blocking", status: "closed", expected: null } });
  });

  it("exits 1 when a record's stored hash does not hold", async () => {
    const tampered = join(folder, "tampered.json");
    await writeFile(tampered, JSON.stringify({ ...JSON.parse(await readFile(recordPath, "utf8")), eventLogHash: "a".repeat(64) }));
    const { code, stdout } = await runCli(["replay", tampered, "--kernel", kernel010]);
    expect(code).toBe(1);
    expect(stdout).toContain("event-log hash does NOT match the record");
  });

  it("exits 2 for a transcript of another kernel version without --across-versions, naming the flag", async () => {
    const { code, stderr } = await runCli(["replay", shrunkPath, "--kernel", kernel020]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: kernelVersion: got "0\.2\.0"; expected kernel version 0\.1\.0 .*--across-versions/);
  });

  it("exits 2 for bad kernel YAML, an unknown action, a malformed record and a file that is not JSON", async () => {
    const badKernel = join(folder, "bad.yaml");
    await writeFile(badKernel, "version: [unclosed\n");
    const yaml = await runCli(["replay", shrunkPath, "--kernel", badKernel]);
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain("bad.yaml");

    const unknown = join(folder, "unknown.json");
    const transcript = JSON.parse(await readFile(shrunkPath, "utf8"));
    await writeFile(unknown, JSON.stringify({ ...transcript, actions: [{ type: "Bribe", actor: "c0" }, ...transcript.actions] }));
    const action = await runCli(["replay", unknown, "--kernel", kernel010]);
    expect(action.code).toBe(2);
    expect(action.stderr).toMatch(/actions\[0\]\.type: got "Bribe"; expected one of ProposeSpend, .*Pass/);

    const malformed = join(folder, "malformed.json");
    await writeFile(malformed, JSON.stringify({ ...JSON.parse(await readFile(recordPath, "utf8")), expectations: { "0.1.0": "ajar" } }));
    const record = await runCli(["replay", malformed, "--kernel", kernel010]);
    expect(record.code).toBe(2);
    expect(record.stderr).toMatch(/malformed\.json: expectations\.0\.1\.0/);

    const notJson = join(folder, "not.json");
    await writeFile(notJson, "{");
    expect((await runCli(["replay", notJson, "--kernel", kernel010])).code).toBe(2);
    expect((await runCli(["replay", join(folder, "missing.json"), "--kernel", kernel010])).code).toBe(2);
  });
});
