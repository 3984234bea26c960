import { SelfplayError } from "../../core/errors/index.js";

/**
 * A protection the sandbox needs cannot be had on this machine (containers
 * often refuse user namespaces or cgroup writes) and the caller did not list
 * it in `allowMissing`. The message names each one, why, and how to proceed.
 */
export class SandboxUnavailableError extends SelfplayError {
  override readonly name = "SandboxUnavailableError";
  constructor(
    /** Each missing protection and what its probe saw. */
    readonly missing: readonly { protection: string; detail: string }[],
  ) {
    super(
      `the sandbox cannot be had in full here: ${missing.map(({ protection, detail }) => `${protection} (${detail})`).join("; ")}; ` +
        `allow unprivileged user namespaces and cgroup writes (run as root, or with a delegated cgroup), or pass allowMissing: [${missing.map(({ protection }) => `"${protection}"`).join(", ")}] (CLI: --allow-missing ${missing.map(({ protection }) => protection).join(",")}) to run with less, recorded in the result's isolation`,
    );
  }
}
