export { DeviceBuildConflictError } from "./device-build-conflict-error.js";
export { DeviceNotFoundError } from "./device-not-found-error.js";
export { GrammarRejectedTokenError } from "./grammar-rejected-token-error.js";
