import { describe, expect, it } from "vitest";
import { classifySandboxExit, uncaughtErrorCode } from "../../../src/dream/sandbox/classify-sandbox-exit.js";

const exit = { exitCode: 1, signal: null, killedFor: undefined, refusedForks: 0, oomKills: 0, diskFull: false } as const;

describe("classifySandboxExit", () => {
  it("names the sandbox's own output kill first, then the kernel's counters over the clock that then killed the run", () => {
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", killedFor: "output-cap", refusedForks: 3 })).toEqual({ status: "killed", reason: "output-cap" });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", killedFor: "timeout", refusedForks: 3 })).toEqual({ status: "killed", reason: "process-limit" });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", killedFor: "timeout", diskFull: true })).toEqual({ status: "killed", reason: "disk" });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", oomKills: 1 })).toEqual({ status: "killed", reason: "memory" });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", killedFor: "timeout" })).toEqual({ status: "killed", reason: "timeout" });
  });

  it("calls a full disk `disk` even when the program exited 0", () => {
    expect(classifySandboxExit({ ...exit, exitCode: 0, diskFull: true })).toEqual({ status: "killed", reason: "disk" });
  });

  it("is ok only on exit 0 with no limit hit; otherwise the exit itself", () => {
    expect(classifySandboxExit({ ...exit, exitCode: 0 })).toEqual({ status: "ok", reason: "completed" });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGTERM" })).toEqual({ status: "failed", reason: "signal" });
    expect(classifySandboxExit(exit)).toEqual({ status: "failed", reason: "exit-code" });
  });

  it("takes the last error code Node printed, for the record only", () => {
    expect(uncaughtErrorCode("code: 'EAGAIN'\n...\ncode: 'ENOENT'")).toBe("ENOENT");
    expect(uncaughtErrorCode("no code here")).toBeNull();
  });
});
