import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { SandboxOptionsError, SandboxUnavailableError } from "../../../src/dream/errors/index.js";
import { runInSandbox, type SandboxInternals } from "../../../src/dream/sandbox/run-in-sandbox.js";
import { createRunCgroups } from "../../../src/dream/sandbox/run-cgroups.js";
import { SANDBOX_SKIP_REASON, sandboxNamespaces } from "./sandbox-namespaces-for-tests.js";

/** This checkout's package.json, wherever it was cloned: a file the host has and the sandbox must not show. */
const checkoutPackageJson = fileURLToPath(new URL("../../../package.json", import.meta.url));
const limits = { timeoutMs: 5_000, memoryMb: 128, outputCapBytes: 64 * 1024 };

/** The host is unharmed: it still starts a process, and nothing the run started is alive (no process carries the run's marker). */
function expectHostUnharmed(marker: string): void {
  expect(execFileSync(process.execPath, ["-e", "process.stdout.write('alive')"], { encoding: "utf8" })).toBe("alive");
  const survivors = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"));
  expect(survivors).toEqual([]);
}

describe.skipIf(!sandboxNamespaces.available)(`runInSandbox in namespaces${SANDBOX_SKIP_REASON}`, () => {
  it("runs a normal program: it reads its fixture and writes its output, which the caller reads afterwards", async () => {
    const workDirectory = await mkdtemp(join(tmpdir(), "sandbox-test-"));
    try {
      const source = `const fs = require("fs"); const rows = JSON.parse(fs.readFileSync("rows.json", "utf8")); fs.writeFileSync("out.txt", String(rows.reduce((a, b) => a + b, 0))); console.log("summed", rows.length);`;
      const result = await runInSandbox({ source, files: { "rows.json": "[1,2,3,4]" }, workDirectory, ...limits });
      expect(result).toMatchObject({ status: "ok", reason: "completed", exitCode: 0, stdout: "summed 4\n", stderr: "" });
      expect(result.isolation).toEqual({ namespaces: true, network: "none", filesystem: "pivot-root", disk: "tmpfs", user: "unprivileged", memory: "memory-cgroup", processes: "pids-cgroup", permissionFlags: true });
      expect(await readFile(join(workDirectory, "out.txt"), "utf8")).toBe("10");
      expect(result.copyOut).toEqual({ files: 3, bytes: Buffer.byteLength(source) + 9 + 2, refused: [] });
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

  it("stops a heap bomb (reason memory, from the memory cgroup's OOM counter)", { timeout: 40_000 }, async () => {
    // The smallest cgroup (64 + 1 MiB) and a generous clock: the OOM killer, not the timer, must end it even on a loaded machine.
    const result = await runInSandbox({ source: "const kept = []; for (;;) kept.push({ filler: new Array(1000).fill(1) });", args: ["marker-heap"], ...limits, memoryMb: 64, diskMb: 1, timeoutMs: 30_000 });
    expect(result).toMatchObject({ status: "killed", reason: "memory" });
    expectHostUnharmed("marker-heap");
  });

  it("stops a Buffer bomb, which V8's heap flag alone does not see (reason memory)", { timeout: 40_000 }, async () => {
    const result = await runInSandbox({ source: "const kept = []; for (;;) kept.push(Buffer.alloc(1 << 20, 1));", args: ["marker-buffer"], ...limits, timeoutMs: 30_000 });
    expect(result).toMatchObject({ status: "killed", reason: "memory" });
    expectHostUnharmed("marker-buffer");
  });

  it("refuses a fork bomb: Node's permission model by default, the pids cap when child processes are allowed", { timeout: 40_000 }, async () => {
    const bomb = `const { spawn } = require("child_process"); for (let i = 0; i < 4; i += 1) spawn(process.execPath, [__filename, "marker-fork"], { stdio: "inherit" }); setTimeout(() => {}, 60000);`;
    const refused = await runInSandbox({ source: bomb, args: ["marker-fork"], ...limits });
    expect(refused).toMatchObject({ status: "failed", reason: "exit-code", errorCode: "ERR_ACCESS_DENIED" });
    const capped = await runInSandbox({ source: bomb, args: ["marker-fork"], ...limits, timeoutMs: 8_000, maxProcesses: 32, allowChildProcesses: true, permissionFlags: false });
    expect(capped).toMatchObject({ status: "killed", reason: "process-limit" });
    expectHostUnharmed("marker-fork");
  });

  it("stops output past the cap and keeps exactly the cap (reason output-cap)", async () => {
    const result = await runInSandbox({ source: "for (;;) process.stdout.write('x'.repeat(4096));", ...limits, outputCapBytes: 10_000 });
    expect(result).toMatchObject({ status: "killed", reason: "output-cap" });
    expect(result.stdout.length + result.stderr.length).toBe(10_000);
  });

  interface Escape {
    name: string;
    /** The program, given the host work directory it runs from. */
    source: (workDirectory: string) => string;
    /** The error codes it may stop with (ERR_ACCESS_DENIED only with permission flags on). */
    codes: string[];
    /** What the same program prints run by `node` on the host from the work directory: the control that the escape aims at something real. */
    hostPrints?: () => Promise<string>;
  }
  const printsFile = (path: string) => async () => `${await readFile(path, "utf8")}\n`;
  const escapes: Escape[] = [
    { name: "../ out of the work directory to this checkout's package.json", source: (work) => `console.log(require("fs").readFileSync(${JSON.stringify(relative(work, checkoutPackageJson))}, "utf8"))`, codes: ["ERR_ACCESS_DENIED", "ENOENT"], hostPrints: printsFile(checkoutPackageJson) },
    { name: "this checkout's package.json by its absolute path", source: () => `console.log(require("fs").readFileSync(${JSON.stringify(checkoutPackageJson)}, "utf8"))`, codes: ["ERR_ACCESS_DENIED", "ENOENT"], hostPrints: printsFile(checkoutPackageJson) },
    { name: "/root", source: () => `console.log(require("fs").readdirSync("/root"))`, codes: ["ERR_ACCESS_DENIED", "ENOENT"] },
    { name: "a write to /etc/passwd", source: () => `require("fs").writeFileSync("/etc/passwd", "owned")`, codes: ["ERR_ACCESS_DENIED", "EROFS", "ENOENT"] },
    { name: "a symlink pointing outside", source: () => `console.log(require("fs").readFileSync("outside", "utf8"))`, codes: ["ERR_ACCESS_DENIED", "ENOENT"], hostPrints: printsFile("/etc/passwd") },
  ];
  // Each escape runs twice: with Node's permission flags (defence in depth) and without, so the namespace view alone is tested.
  for (const permissionFlags of [true, false]) {
    for (const { name, source, codes, hostPrints } of escapes) {
      it(`refuses ${name} (permission flags ${permissionFlags ? "on" : "off"})${hostPrints ? "; the same program on the host reads it" : ""}`, async () => {
        const workDirectory = await mkdtemp(join(tmpdir(), "sandbox-escape-"));
        const passwd = await readFile("/etc/passwd", "utf8");
        try {
          await symlink("/etc/passwd", join(workDirectory, "outside"));
          const result = await runInSandbox({ source: source(workDirectory), workDirectory, permissionFlags, ...limits });
          expect(result.status).toBe("failed");
          expect(permissionFlags ? codes : codes.filter((code) => code !== "ERR_ACCESS_DENIED")).toContain(result.errorCode);
          expect(result.reason).toBe("exit-code");
          expect(result.stdout).toBe("");
          expect(await readFile("/etc/passwd", "utf8")).toBe(passwd);
          expect((await readdir(workDirectory)).sort()).toEqual(["outside", "program.js"]);
          // The control: the program the sandbox refused, run on the host from the same folder, reads what it aimed at.
          if (hostPrints) expect(execFileSync(process.execPath, ["program.js"], { cwd: workDirectory, encoding: "utf8" })).toBe(await hostPrints());
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

    it("fails: the sandbox has no network (the error code is recorded; the verdict is the exit)", async () => {
      const source = `require("net").connect(${port}, "127.0.0.1").on("data", (data) => console.log(String(data)));`;
      const result = await runInSandbox({ source, ...limits });
      expect(result).toMatchObject({ status: "failed", reason: "exit-code", stdout: "" });
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
  const refused = { probe: () => Promise.resolve({ available: false, detail: "unshare: unshare failed: Operation not permitted", dropsUid: false }) };

  it("refuses to run unless the caller allowed it, naming what is missing and the option", async () => {
    await expect(runInSandbox({ source: "" }, refused)).rejects.toThrow(SandboxUnavailableError);
    await expect(runInSandbox({ source: "" }, refused)).rejects.toThrow(/namespaces \(unshare: unshare failed: Operation not permitted\).*allowMissing: \["namespaces"\]/);
  });

  it("with allowMissing, falls back to Node's permission flags, records it and warns", async () => {
    const result = await runInSandbox({ source: `require("fs").writeFileSync("out.txt", "written"); console.log("ok");`, ...limits, allowMissing: ["namespaces"] }, refused);
    expect(result).toMatchObject({ status: "ok", reason: "completed", stdout: "ok\n" });
    expect(result.isolation).toMatchObject({ namespaces: false, network: "host", filesystem: "permission-flags", disk: "host", permissionFlags: true });
    expect(result.warnings[0]).toMatch(/^no namespaces \(unshare: unshare failed: Operation not permitted\): the program can reach the network/);
  });

  it("still refuses files outside the work directory, and the memory cgroup still decides `memory`", { timeout: 40_000 }, async () => {
    const escape = await runInSandbox({ source: `require("fs").readFileSync("/etc/passwd")`, ...limits, allowMissing: ["namespaces"] }, refused);
    expect(escape).toMatchObject({ status: "failed", reason: "exit-code", errorCode: "ERR_ACCESS_DENIED" });
    const bomb = await runInSandbox({ source: "const kept = []; for (;;) kept.push(Buffer.alloc(1 << 20, 1));", ...limits, timeoutMs: 30_000, allowMissing: ["namespaces"] }, refused);
    expect(bomb).toMatchObject({ status: "killed", reason: "memory" });
  });
});

describe("runInSandbox without a memory cgroup", () => {
  const noMemory: SandboxInternals = {
    cgroups: async (name, options) => ({ ...(await createRunCgroups(name, options)), memory: undefined }),
  };

  it("refuses to run unless allowed; allowed, it says memory is unobserved and reports what it saw", async () => {
    await expect(runInSandbox({ source: "", ...limits }, noMemory)).rejects.toThrow(/memory-cgroup \(no memory cgroup could be made/);
    const bomb = await runInSandbox({ source: "const kept = []; for (;;) kept.push(Buffer.alloc(1 << 20, 1));", ...limits, allowMissing: ["memory-cgroup"] }, noMemory);
    expect(bomb.isolation.memory).toBe("rlimit-data");
    expect(bomb.warnings.join("\n")).toMatch(/no memory cgroup: .* no run is judged `memory`/);
    // RLIMIT_DATA made an allocation fail and Node abort: a death by signal is all the sandbox saw, so that is the verdict.
    expect(bomb).toMatchObject({ status: "failed", reason: "signal" });
  });
});

// Each case here was an attack that worked before the run folder was a capped tmpfs, the program ran as nobody in
// its own session, and the verdict came from the supervisor's own observations.
describe.skipIf(!sandboxNamespaces.available)(`runInSandbox against hostile programs${SANDBOX_SKIP_REASON}`, () => {
  it("stops a 1 GiB writer at the tmpfs cap (reason disk); the host folder receives at most the cap", async () => {
    const workDirectory = await mkdtemp(join(tmpdir(), "sandbox-disk-"));
    try {
      const source = `const fs = require("fs"); const chunk = Buffer.alloc(1 << 20, 7); const fd = fs.openSync("big", "w"); for (let i = 0; i < 1024; i += 1) fs.writeSync(fd, chunk);`;
      const result = await runInSandbox({ source, workDirectory, ...limits, diskMb: 16 });
      expect(result).toMatchObject({ status: "killed", reason: "disk", exitCode: 1 });
      expect(result.stderr).toMatch(/ENOSPC/);
      expect((await stat(join(workDirectory, "big"))).size).toBeLessThanOrEqual(16 * 1024 * 1024);
    } finally {
      await rm(workDirectory, { recursive: true, force: true });
    }
  });

  it("calls it disk when the program catches ENOSPC and exits 0", async () => {
    const source = `const fs = require("fs"); try { for (let i = 0; ; i += 1) fs.writeFileSync("f" + i, Buffer.alloc(1 << 20)); } catch (error) { console.log("caught", error.code); } process.exit(0);`;
    const result = await runInSandbox({ source, ...limits, diskMb: 4 });
    expect(result).toMatchObject({ status: "killed", reason: "disk", exitCode: 0, stdout: "caught ENOSPC\n" });
  });

  it("stops 100,000 files at the inode cap (reason disk)", async () => {
    const source = `const fs = require("fs"); for (let i = 0; i < 100000; i += 1) fs.writeFileSync("f" + i, "");`;
    const result = await runInSandbox({ source, ...limits, maxFiles: 256 });
    expect(result).toMatchObject({ status: "killed", reason: "disk" });
    expect(result.stderr).toMatch(/ENOSPC/);
  });

  it("judges by what it saw, not what the program printed: a fake ENOSPC, a fake V8 OOM and a fake EAGAIN exit as exit-code, and spinning after them is timeout", async () => {
    const lies = `process.stderr.write("Error: ENOSPC: no space left on device\\n  code: 'ENOSPC'\\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\\nError: spawn EAGAIN\\n  code: 'EAGAIN',\\n");`;
    const exited = await runInSandbox({ source: `${lies} process.exitCode = 1;`, ...limits });
    expect(exited).toMatchObject({ status: "failed", reason: "exit-code", exitCode: 1, errorCode: "EAGAIN" });
    const spun = await runInSandbox({ source: `${lies} for (;;) {}`, ...limits, timeoutMs: 500 });
    expect(spun).toMatchObject({ status: "killed", reason: "timeout", signal: "SIGKILL" });
  });

  it("runs the program as nobody on the host: its root maps to 65534, it has no capabilities, and a setuid bit does not come back", async () => {
    const workDirectory = await mkdtemp(join(tmpdir(), "sandbox-uid-"));
    try {
      const source = `const fs = require("fs"); fs.writeFileSync("suid", "#!/bin/sh\\n"); fs.chmodSync("suid", 0o4755); console.log(fs.readFileSync("/proc/self/uid_map", "utf8").trim().split(/\\s+/).join(" ")); console.log(/CapEff:\\s*(\\w+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]);`;
      const result = await runInSandbox({ source, workDirectory, ...limits, permissionFlags: false });
      expect(result).toMatchObject({ status: "ok", stdout: "0 65534 1\n0000000000000000\n" });
      const copied = await stat(join(workDirectory, "suid"));
      expect(copied.mode & 0o7777).toBe(0o644);
      expect(copied.uid).toBe(process.getuid?.());
    } finally {
      await rm(workDirectory, { recursive: true, force: true });
    }
  });

  it("keeps the program's signals to its own processes: a signal to its process group does not end the run", async () => {
    const source = `process.on("SIGUSR2", () => {}); process.kill(0, "SIGUSR2"); setTimeout(() => console.log("survived"), 200);`;
    const result = await runInSandbox({ source, ...limits, permissionFlags: false });
    expect(result).toMatchObject({ status: "ok", reason: "completed", stdout: "survived\n" });
  });

  it("shows the program its own hostname, a pivot_root'ed view and no host path", async () => {
    const source = `const fs = require("fs"); const os = require("os"); console.log(JSON.stringify({ hostname: os.hostname(), env: process.env, cwd: process.cwd(), mounts: fs.readFileSync("/proc/self/mountinfo", "utf8").trim().split("\\n").map((line) => line.split(" ")[4]).sort() }));`;
    const result = await runInSandbox({ source, ...limits, permissionFlags: false });
    const seen = JSON.parse(result.stdout) as { hostname: string; env: Record<string, string>; cwd: string; mounts: string[] };
    expect(seen.hostname).toBe("sandbox");
    expect(seen.cwd).toBe("/work");
    expect(seen.env).toEqual({ PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/work", TMPDIR: "/work", PWD: "/work" });
    expect(JSON.stringify(seen)).not.toMatch(/selfplay-sandbox|\/tmp/);
    // Exactly the view the supervisor built: no mount of the old root is left to climb back to.
    expect(seen.mounts).toEqual(["/", "/dev/null", "/dev/urandom", "/dev/zero", "/proc", "/usr", "/work"].sort());
  });

  it("refuses a work directory larger than the tmpfs before starting, naming the option to raise", async () => {
    const workDirectory = await mkdtemp(join(tmpdir(), "sandbox-big-input-"));
    try {
      await writeFile(join(workDirectory, "big.bin"), Buffer.alloc(2 * 1024 * 1024));
      await expect(runInSandbox({ source: "", workDirectory, ...limits, diskMb: 1 })).rejects.toThrow(/workDirectory: .*raise diskMb/);
    } finally {
      await rm(workDirectory, { recursive: true, force: true });
    }
  });
});
