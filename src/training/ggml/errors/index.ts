export { GgmlMemoryError } from "./ggml-memory-error.js";
export { GgmlTrainerUnavailableError } from "./ggml-trainer-unavailable-error.js";
