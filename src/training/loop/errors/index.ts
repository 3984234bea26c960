export { NothingTrainedError } from "./nothing-trained-error.js";
export { RolloutsFailedError } from "./rollouts-failed-error.js";
export { TrainingDivergedError } from "./training-diverged-error.js";
