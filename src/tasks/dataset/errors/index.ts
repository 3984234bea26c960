export { DatasetFunctionsUnavailableError } from "./dataset-functions-unavailable-error.js";
export { RewardFunctionError, rewardNameOfError } from "./reward-function-error.js";
