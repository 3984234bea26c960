import { describe, expect, it } from "vitest";
import { classifySandboxExit, uncaughtErrorCode } from "../../../src/dream/sandbox/classify-sandbox-exit.js";

const exit = { exitCode: 1, signal: null, stderr: "", killedFor: undefined, refusedForks: 0 } as const;

describe("classifySandboxExit", () => {
  it("names the sandbox's own kills first, and a refused fork over the clock that then killed the bomb", () => {
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", killedFor: "output-cap", refusedForks: 3 })).toEqual({ status: "killed", reason: "output-cap", errorCode: null });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", killedFor: "timeout", refusedForks: 3 })).toEqual({ status: "killed", reason: "process-limit", errorCode: null });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGKILL", killedFor: "timeout" })).toEqual({ status: "killed", reason: "timeout", errorCode: null });
  });

  it("reads memory, access and network failures from what Node printed", () => {
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGSEGV", stderr: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory" })).toMatchObject({ status: "killed", reason: "memory" });
    expect(classifySandboxExit({ ...exit, stderr: "Error: Access to this API has been restricted\n  code: 'ERR_ACCESS_DENIED',\n" })).toEqual({ status: "failed", reason: "access-denied", errorCode: "ERR_ACCESS_DENIED" });
    expect(classifySandboxExit({ ...exit, stderr: "Error: connect ENETUNREACH 127.0.0.1:80\n  code: 'ENETUNREACH',\n" })).toEqual({ status: "failed", reason: "network-denied", errorCode: "ENETUNREACH" });
    expect(classifySandboxExit({ ...exit, stderr: "Error: ENOENT\n  code: 'ENOENT',\n" })).toEqual({ status: "failed", reason: "exit-code", errorCode: "ENOENT" });
  });

  it("is ok only on exit 0", () => {
    expect(classifySandboxExit({ ...exit, exitCode: 0 })).toEqual({ status: "ok", reason: "completed", errorCode: null });
    expect(classifySandboxExit({ ...exit, exitCode: null, signal: "SIGTERM" })).toEqual({ status: "failed", reason: "signal", errorCode: null });
  });

  it("takes the last error code Node printed", () => {
    expect(uncaughtErrorCode("code: 'EAGAIN'\n...\ncode: 'ENOENT'")).toBe("ENOENT");
    expect(uncaughtErrorCode("no code here")).toBeNull();
  });
});
