export { DroppedRolloutError } from "./dropped-rollout-error.js";
export { EnvironmentModuleError } from "./environment-module-error.js";
