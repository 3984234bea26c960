export { QuantisedPolicyExportError } from "./quantised-policy-export-error.js";
export { WasmOutOfMemoryError } from "./wasm-out-of-memory-error.js";
