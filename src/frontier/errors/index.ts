export { MultiTurnEpisodeError } from "./multi-turn-episode-error.js";
