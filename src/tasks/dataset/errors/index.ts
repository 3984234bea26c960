export { DatasetFunctionsUnavailableError } from "./dataset-functions-unavailable-error.js";
export { RewardFunctionError } from "./reward-function-error.js";
