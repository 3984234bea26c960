// The `selfplay/tfjs` entry. The tfjs trainer backend; importing this entry loads tfjs (`createTrainer("tfjs", …)` loads it on demand).
export {
  TfjsTrainer
} from "../training/tfjs/index.js";
