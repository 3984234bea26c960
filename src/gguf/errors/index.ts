export { CorruptGgufError } from "./corrupt-gguf-error.js";
export { GgufError } from "./gguf-error.js";
export { GgufFileNotFoundError } from "./gguf-file-not-found-error.js";
export { GgufTensorNotFoundError } from "./gguf-tensor-not-found-error.js";
export { NotGgufError } from "./not-gguf-error.js";
export { TruncatedGgufError } from "./truncated-gguf-error.js";
export { UnsupportedGgufVersionError } from "./unsupported-gguf-version-error.js";
export { UnsupportedTensorTypeError } from "./unsupported-tensor-type-error.js";
