import { AsyncLocalStorage } from "node:async_hooks";
import type { JsonValue } from "../core/json.js";

/** The module an environment was made by, and the options it was made with: enough for another thread to make it again. */
export interface EnvironmentSource {
  /** A `file:` URL of a JavaScript module exporting `createEnvironment(options)`. */
  module: string;
  /** What `createEnvironment` was called with (JSON). */
  options?: JsonValue;
}

const loading = new AsyncLocalStorage<EnvironmentSource>();

/** Runs `make` (a module's `createEnvironment`) knowing which module and options it runs for. */
export function withEnvironmentSource<Result>(source: EnvironmentSource, make: () => Result): Result {
  return loading.run(source, make);
}

/**
 * The module selfplay is making an environment from right now (`--env
 * ./my-env.js`), or undefined outside one: an environment whose episodes need
 * functions that are not JSON (a dataset's reward functions) records it, so
 * that pool workers import the module and make the same functions.
 */
export function currentEnvironmentSource(): EnvironmentSource | undefined {
  return loading.getStore();
}
