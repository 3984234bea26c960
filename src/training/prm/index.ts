// Training a process reward model (part of the `selfplay/prm` entry): importing it loads tfjs.
export { trainPrm, type TrainPrmOptions, type TrainedPrm } from "./train-prm.js";
export {
  PrmTrainingConfigurationSchema,
  type PrmTrainingConfiguration,
  type PrmTrainingConfigurationInput,
} from "./prm-training-configuration.js";
export type { PrmWeights } from "./prm-weights.js";
export { savePrm } from "./save-prm.js";
export { loadPrm } from "./load-prm.js";
