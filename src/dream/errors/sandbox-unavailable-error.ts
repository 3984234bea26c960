import { SelfplayError } from "../../core/errors.js";

/**
 * `isolation: "namespaces"` was demanded but this machine refuses `unshare`
 * (containers often do). Pass `isolation: "auto"` to run with the fallback
 * (recorded on each result), or allow unprivileged user namespaces.
 */
export class SandboxUnavailableError extends SelfplayError {
  override readonly name = "SandboxUnavailableError";
  constructor(
    /** What the namespace probe printed. */
    readonly detail: string,
  ) {
    super(`the sandbox's namespaces are unavailable here (${detail}); pass isolation "auto" to run with Node's permission flags only, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)`);
  }
}
