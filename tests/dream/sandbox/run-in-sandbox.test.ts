import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors.js";
import { SandboxOptionsError, SandboxUnavailableError } from "../../../src/dream/errors/index.js";
import { probeSandboxNamespaces } from "../../../src/dream/sandbox/probe-sandbox-namespaces.js";
import { runInSandbox } from "../../../src/dream/sandbox/run-in-sandbox.js";

const probe = await probeSandboxNamespaces();
const limits = { timeoutMs: 5_000, memoryMb: 128, outputCapBytes: 64 * 1024 };

/** The host is unharmed: it still starts a process, and nothing the run started is alive (no process carries the run's marker). */
function expectHostUnharmed(marker: string): void {
  expect(execFileSync(process.execPath, ["-e", "process.stdout.write('alive')"], { encoding: "utf8" })).toBe("alive");
  const survivors = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"));
  expect(survivors).toEqual([]);
}

describe.skipIf(!probe.available)(`runInSandbox in namespaces${probe.available ? "" : ` (skipped: unshare refused here: ${probe.detail})`}`, () => {
  it("runs a normal program: it reads its fixture and writes its output, which the caller reads afterwards", async () => {
    const workDirectory = await mkdtemp(join(tmpdir(), "sandbox-test-"));
    try {
      const source = `const fs = require("fs"); const rows = JSON.parse(fs.readFileSync("rows.json", "utf8")); fs.writeFileSync("out.txt", String(rows.reduce((a, b) => a + b, 0))); console.log("summed", rows.length);`;
      const result = await runInSandbox({ source, files: { "rows.json": "[1,2,3,4]" }, workDirectory, ...limits });
      expect(result).toMatchObject({ status: "ok", reason: "completed", exitCode: 0, stdout: "summed 4\n", stderr: "" });
      expect(result.isolation).toEqual({ namespaces: true, network: "none", filesystem: "private-root", memory: "rlimit-data", processes: result.isolation.processes, permissionFlags: true });
      expect(await readFile(join(workDirectory, "out.txt"), "utf8")).toBe("10");
    } finally {
      await rm(workDirectory, { recursive: true, force: true });
    }
  });

  it("kills an infinite loop at the wall clock (reason timeout)", async () => {
    const result = await runInSandbox({ source: "for (;;) {}", args: ["marker-loop"], ...limits, timeoutMs: 500 });
    expect(result).toMatchObject({ status: "killed", reason: "timeout", signal: "SIGKILL" });
    expect(result.wallMs).toBeGreaterThanOrEqual(500);
    expect(result.wallMs).toBeLessThan(4_000);
    expectHostUnharmed("marker-loop");
  });

  it("stops a heap bomb (reason memory)", async () => {
    const result = await runInSandbox({ source: "const kept = []; for (;;) kept.push({ filler: new Array(1000).fill(1) });", args: ["marker-heap"], ...limits });
    expect(result).toMatchObject({ status: "killed", reason: "memory" });
    expectHostUnharmed("marker-heap");
  });

  it("stops a Buffer bomb, which V8's heap flag alone does not see (reason memory)", async () => {
    const result = await runInSandbox({ source: "const kept = []; for (;;) kept.push(Buffer.alloc(1 << 20, 1));", args: ["marker-buffer"], ...limits });
    expect(result).toMatchObject({ status: "killed", reason: "memory" });
    expectHostUnharmed("marker-buffer");
  });

  it("refuses a fork bomb: Node's permission model by default, the pids cap when child processes are allowed", async () => {
    const bomb = `const { spawn } = require("child_process"); for (let i = 0; i < 4; i += 1) spawn(process.execPath, [__filename, "marker-fork"], { stdio: "inherit" }); setTimeout(() => {}, 60000);`;
    const refused = await runInSandbox({ source: bomb, args: ["marker-fork"], ...limits });
    expect(refused).toMatchObject({ status: "failed", reason: "access-denied", errorCode: "ERR_ACCESS_DENIED" });
    const capped = await runInSandbox({ source: bomb, args: ["marker-fork"], ...limits, timeoutMs: 3_000, allowChildProcesses: true, permissionFlags: false });
    if (capped.isolation.processes === "pids-cgroup") expect(capped).toMatchObject({ status: "killed", reason: "process-limit" });
    else expect(capped).toMatchObject({ status: "killed", reason: "timeout" });
    expectHostUnharmed("marker-fork");
  });

  it("stops output past the cap and keeps exactly the cap (reason output-cap)", async () => {
    const result = await runInSandbox({ source: "for (;;) process.stdout.write('x'.repeat(4096));", ...limits, outputCapBytes: 10_000 });
    expect(result).toMatchObject({ status: "killed", reason: "output-cap" });
    expect(result.stdout.length + result.stderr.length).toBe(10_000);
  });

  // Each escape runs twice: with Node's permission flags (defence in depth) and without, so the namespace view alone is tested.
  const escapes: [string, string, string[]][] = [
    ["../ out of the work directory", `console.log(require("fs").readFileSync("../../../work/main/package.json", "utf8"))`, ["ERR_ACCESS_DENIED", "ENOENT"]],
    ["the project's package.json", `require("fs").readFileSync("/work/main/package.json")`, ["ENOENT"]],
    ["/root", `console.log(require("fs").readdirSync("/root"))`, ["ERR_ACCESS_DENIED", "ENOENT"]],
    ["a write to /etc/passwd", `require("fs").writeFileSync("/etc/passwd", "owned")`, ["ERR_ACCESS_DENIED", "EROFS", "ENOENT"]],
    ["a symlink pointing outside", `console.log(require("fs").readFileSync("outside", "utf8"))`, ["ERR_ACCESS_DENIED", "ENOENT"]],
  ];
  for (const permissionFlags of [true, false]) {
    for (const [name, source, codes] of escapes) {
      it(`refuses ${name} (permission flags ${permissionFlags ? "on" : "off"})`, async () => {
        const workDirectory = await mkdtemp(join(tmpdir(), "sandbox-escape-"));
        const passwd = await readFile("/etc/passwd", "utf8");
        try {
          await symlink("/etc/passwd", join(workDirectory, "outside"));
          const result = await runInSandbox({ source, workDirectory, permissionFlags, ...limits });
          expect(result.status).toBe("failed");
          expect(codes).toContain(result.errorCode);
          expect(result.reason).toBe(result.errorCode === "ENOENT" ? "exit-code" : "access-denied");
          expect(result.stdout).toBe("");
          expect(await readFile("/etc/passwd", "utf8")).toBe(passwd);
          expect((await readdir(workDirectory)).sort()).toEqual(["outside", "program.js"]);
        } finally {
          await rm(workDirectory, { recursive: true, force: true });
        }
      });
    }
  }

  describe("a connection to a server the test opened on 127.0.0.1", () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1;
        socket.end("secret");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("fails: the sandbox has no network (reason network-denied)", async () => {
      const source = `require("net").connect(${port}, "127.0.0.1").on("data", (data) => console.log(String(data)));`;
      const result = await runInSandbox({ source, ...limits });
      expect(result).toMatchObject({ status: "failed", reason: "network-denied", stdout: "" });
      expect(["ENETUNREACH", "ECONNREFUSED"]).toContain(result.errorCode);
      expect(connections).toBe(0);
    });
  });
});

describe("runInSandbox's options", () => {
  it("refuses a missing file, naming the field", async () => {
    await expect(runInSandbox({ file: "/nonexistent/program.js" })).rejects.toThrow(SandboxOptionsError);
    await expect(runInSandbox({ file: "/nonexistent/program.js" })).rejects.toThrow(/file: got "\/nonexistent\/program.js"; expected an existing JavaScript file/);
  });

  it("refuses both or neither of file and source, and limits out of range", async () => {
    await expect(runInSandbox({})).rejects.toThrow(InvalidInputError);
    await expect(runInSandbox({ source: "", file: "x.js" })).rejects.toThrow(/exactly one of file and source/);
    await expect(runInSandbox({ source: "", memoryMb: 8 })).rejects.toThrow(/memoryMb/);
  });

  it("refuses fixture paths that leave the work directory", async () => {
    await expect(runInSandbox({ source: "", files: { "../escape.txt": "x" } })).rejects.toThrow(/files\.\.\.\/escape\.txt/);
  });
});

describe("runInSandbox without namespaces (unshare refused)", () => {
  const refused = { probe: () => Promise.resolve({ available: false, detail: "unshare: unshare failed: Operation not permitted" }) };

  it("falls back to Node's permission flags, records it and warns", async () => {
    const result = await runInSandbox({ source: `require("fs").writeFileSync("out.txt", "written"); console.log("ok");`, ...limits }, refused);
    expect(result).toMatchObject({ status: "ok", reason: "completed", stdout: "ok\n" });
    expect(result.isolation).toMatchObject({ namespaces: false, network: "host", filesystem: "permission-flags", memory: "rlimit-data", permissionFlags: true });
    expect(result.warnings[0]).toMatch(/^no namespaces \(unshare: unshare failed: Operation not permitted\): the program can reach the network/);
  });

  it("still refuses files outside the work directory and still bounds Buffers", async () => {
    const escape = await runInSandbox({ source: `require("fs").readFileSync("/etc/passwd")`, ...limits }, refused);
    expect(escape).toMatchObject({ status: "failed", reason: "access-denied", errorCode: "ERR_ACCESS_DENIED" });
    const bomb = await runInSandbox({ source: "const kept = []; for (;;) kept.push(Buffer.alloc(1 << 20, 1));", ...limits }, refused);
    expect(bomb).toMatchObject({ status: "killed", reason: "memory" });
  });

  it('refuses to run when isolation "namespaces" is demanded', async () => {
    await expect(runInSandbox({ source: "", isolation: "namespaces" }, refused)).rejects.toThrow(SandboxUnavailableError);
    await expect(runInSandbox({ source: "", isolation: "namespaces" }, refused)).rejects.toThrow(/pass isolation "auto"/);
  });
});
