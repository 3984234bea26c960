export { GgmlTrainerUnavailableError } from "./ggml-trainer-unavailable-error.js";
