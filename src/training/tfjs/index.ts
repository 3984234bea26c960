// The tfjs trainer backend (the `selfplay/tfjs` entry): importing it loads tfjs.
export { TfjsTrainer } from "./tfjs-trainer.js";
