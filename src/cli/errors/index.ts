export { PoolDefaultError } from "./pool-default-error.js";
