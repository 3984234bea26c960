export { EnvironmentModuleError } from "./environment-module-error.js";
