export { SandboxOptionsError } from "./sandbox-options-error.js";
export { SandboxUnavailableError } from "./sandbox-unavailable-error.js";
export { FixtureSnapshotTooLargeError } from "./fixture-snapshot-too-large-error.js";
