export { ExploitRecordError } from "./exploit-record-error.js";
export { KernelFileError } from "./kernel-file-error.js";
export { KernelVersionMismatchError } from "./kernel-version-mismatch-error.js";
export { UnknownActionError } from "./unknown-action-error.js";
