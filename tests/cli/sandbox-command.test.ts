import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_SKIP_REASON, sandboxNamespaces } from "../dream/sandbox/sandbox-namespaces-for-tests.js";
import { runCli } from "../helpers/run-cli.js";

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-sandbox-cli-"));
  await writeFile(join(folder, "hello.js"), `console.log("hello from", process.cwd());`);
  await writeFile(join(folder, "loop.js"), `for (;;) {}`);
  await writeFile(join(folder, "gigabyte.js"), `const fs = require("fs"); const chunk = Buffer.alloc(1 << 20, 1); const fd = fs.openSync("big.bin", "w"); for (let i = 0; i < 1024; i += 1) fs.writeSync(fd, chunk); console.log("wrote 1 GiB");`);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("selfplay sandbox run", () => {
  // Without namespaces this case checks the host fallback's view instead; SELFPLAY_REQUIRE_SANDBOX=1 (CI) refuses to run it so.
  it(`prints {status, reason, exitCode, stdout, stderr, wallMs, isolation} with --json and exits 0 on a program that exits 0${sandboxNamespaces.available ? "" : " (unshare refused here: the host fallback's view)"}`, async () => {
    const run = await runCli(["sandbox", "run", join(folder, "hello.js"), "--json"]);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(["status", "reason", "exitCode", "stdout", "stderr", "wallMs", "isolation"]);
    expect(printed).toMatchObject({ status: "ok", reason: "completed", exitCode: 0, stderr: "" });
    expect(printed.stdout).toBe(sandboxNamespaces.available ? "hello from /work\n" : expect.stringMatching(/^hello from \//));
    expect(printed.isolation).toMatchObject({ namespaces: sandboxNamespaces.available, network: sandboxNamespaces.available ? "none" : "host" });
  });

  it("exits 1 and says why when the program is killed", async () => {
    const run = await runCli(["sandbox", "run", join(folder, "loop.js"), "--timeout-ms", "300"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^killed \(timeout\): signal SIGKILL after \d+ ms\nisolation: namespaces /);
  });

  it.skipIf(!sandboxNamespaces.available)(`stops a program writing 1 GiB at the disk cap with reason disk${SANDBOX_SKIP_REASON}`, async () => {
    const run = await runCli(["sandbox", "run", join(folder, "gigabyte.js"), "--disk-mb", "32", "--json"]);
    expect(run.code).toBe(1);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ status: "killed", reason: "disk", stdout: "" });
    expect(printed.stderr).toMatch(/ENOSPC/);
  });

  it("exits 2 on a missing file or a bad flag, naming it", async () => {
    const missing = await runCli(["sandbox", "run", join(folder, "absent.js")]);
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toMatch(/^error: file: got ".*absent\.js"; expected an existing JavaScript file/);
    const badTimeout = await runCli(["sandbox", "run", join(folder, "hello.js"), "--timeout-ms", "soon"]);
    expect(badTimeout).toMatchObject({ code: 2, stdout: "" });
    expect(badTimeout.stderr).toMatch(/--timeout-ms/);
    const badMemory = await runCli(["sandbox", "run", join(folder, "hello.js"), "--memory-mb", "1"]);
    expect(badMemory.code).toBe(2);
    expect(badMemory.stderr).toMatch(/--memory-mb: got "1"; expected an integer from 64 to 65536/);
    expect((await runCli(["sandbox", "run"])).code).toBe(2);
    const badAllowance = await runCli(["sandbox", "run", join(folder, "hello.js"), "--allow-missing", "network"]);
    expect(badAllowance).toMatchObject({ code: 2, stdout: "" });
    expect(badAllowance.stderr).toMatch(/--allow-missing: .*namespaces, memory-cgroup, pids-cgroup/);
  });
});
