export { RolloutAbortedError } from "./rollout-aborted-error.js";
export { UnknownEpisodeTypeError } from "./unknown-episode-type-error.js";
export { UnknownRoleError } from "./unknown-role-error.js";
