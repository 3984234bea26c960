export { UngradableChallengeError } from "./ungradable-challenge-error.js";
