export { HeldOutProblemError } from "./held-out-problem-error.js";
