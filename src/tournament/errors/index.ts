export { ExploitRecordError, KernelFileError, KernelVersionMismatchError, UnknownActionError } from "./tournament-errors.js";
