export { CorruptJsonlError } from "./corrupt-jsonl-error.js";
export { InvalidInputError } from "./invalid-input-error.js";
export { InvalidRewardError } from "./invalid-reward-error.js";
export { JudgeOutputError } from "./judge-output-error.js";
export { PackageRootNotFoundError } from "./package-root-not-found-error.js";
export { SelfplayError } from "./selfplay-error.js";
export { StructuredOutputError } from "./structured-output-error.js";
export { toErrorRecord, type ErrorRecord } from "./to-error-record.js";
export { UnknownKeyError } from "./unknown-key-error.js";
