// The `selfplay/gguf` entry. GGUF files: read, write, inspect, dequantise.
export {
  GgufReader, writeGguf, inspectGguf, dequantize, DEQUANTIZABLE_TYPES
} from "../gguf/index.js";
