export { EpisodeModuleError } from "./episode-module-error.js";
export { RolloutPoolError } from "./rollout-pool-error.js";
export { RolloutTimeoutError } from "./rollout-timeout-error.js";
export { RolloutWorkerCrashedError } from "./rollout-worker-crashed-error.js";
