// GGUF files: read, write, inspect, dequantise (the `selfplay/gguf` entry).
export { GgufReader } from "./gguf-reader.js";
export { writeGguf } from "./write-gguf.js";
export { inspectGguf } from "./inspect-gguf.js";
export { dequantize, DEQUANTIZABLE_TYPES } from "./dequantize.js";
