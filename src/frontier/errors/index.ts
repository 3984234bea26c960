export { InvalidPrmScoreError } from "./invalid-prm-score-error.js";
export { MultiTurnEpisodeError } from "./multi-turn-episode-error.js";
export { PrmModelError } from "./prm-model-error.js";
