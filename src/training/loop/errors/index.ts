export { TrainingDivergedError } from "./training-diverged-error.js";
