export { SandboxOptionsError } from "./sandbox-options-error.js";
export { SandboxUnavailableError } from "./sandbox-unavailable-error.js";
