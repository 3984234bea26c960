export { BenchmarkMismatchError } from "./benchmark-mismatch-error.js";
export { LlamaCppToolError } from "./llama-cpp-tool-error.js";
