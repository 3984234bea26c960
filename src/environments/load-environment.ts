import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { InvalidInputError, UnknownKeyError } from "../core/errors/index.js";
import type { JsonValue } from "../core/json.js";
import { unknownKeyMessage } from "../core/unknown-key-message.js";
import type { Environment, EnvironmentFactory } from "./environment.js";
import { EnvironmentShapeSchema } from "./environment-shape.js";
import { withEnvironmentSource } from "./environment-source.js";
import { EnvironmentModuleError } from "./errors/environment-module-error.js";

/** Environment factories by the name `--env` takes: the tasks selfplay ships (`BUILT_IN_ENVIRONMENTS`) or a caller's own. */
export type EnvironmentRegistry = Readonly<Record<string, EnvironmentFactory>>;

/** The export a user's environment module provides: `createEnvironment(options) => Environment`. */
export const ENVIRONMENT_FACTORY_EXPORT = "createEnvironment";

/**
 * The environment `--env` names: one of `registry`, or a JavaScript module (a
 * path starting with `./`, `../` or `/`, or a `file:` URL) exporting
 * `createEnvironment(options)`. Everything it returns is checked before the
 * loop sees it; any problem is an EnvironmentModuleError naming the module,
 * and a key the contract does not declare (on the environment, a plan entry,
 * its clusters …) an UnknownKeyError naming the key and the nearest valid one.
 */
export async function loadEnvironmentFrom(registry: EnvironmentRegistry, name: string, options?: JsonValue): Promise<Environment> {
  const builtIn = registry[name];
  const isModule = name.startsWith("file:") || name.startsWith("./") || name.startsWith("../") || isAbsolute(name);
  if (!builtIn && !isModule) {
    throw new EnvironmentModuleError(name, `no such built-in environment; give one of ${Object.keys(registry).join(", ")} or a JavaScript module path (./my-environment.js)`);
  }
  let factory: EnvironmentFactory;
  const moduleUrl = name.startsWith("file:") ? name : pathToFileURL(resolve(name)).href;
  if (builtIn) factory = builtIn;
  else {
    let exports: Record<string, unknown>;
    try {
      exports = (await import(moduleUrl)) as Record<string, unknown>;
    } catch (error) {
      throw new EnvironmentModuleError(name, `does not load: ${whyNotLoaded(error)}`);
    }
    const exported = exports[ENVIRONMENT_FACTORY_EXPORT];
    if (typeof exported !== "function") {
      throw new EnvironmentModuleError(
        name,
        `export "${ENVIRONMENT_FACTORY_EXPORT}" is ${typeof exported}; export a function (options) => Environment under that name (exports: ${Object.keys(exports).join(", ") || "none"})`,
      );
    }
    factory = exported as EnvironmentFactory;
  }
  let environment: unknown;
  try {
    // A module's environment knows where it came from (currentEnvironmentSource), so pool workers can make it again.
    environment = await (builtIn ? factory(options) : withEnvironmentSource({ module: moduleUrl, ...(options !== undefined && { options }) }, () => factory(options)));
  } catch (error) {
    // Its options were refused: the message already names the field (`environment.solvers`) and what is allowed.
    if (error instanceof InvalidInputError) throw error;
    throw new EnvironmentModuleError(name, `${ENVIRONMENT_FACTORY_EXPORT} threw: ${(error as Error).message}`, { cause: error });
  }
  const shape = EnvironmentShapeSchema.safeParse(environment, { error: unknownKeyMessage });
  if (!shape.success) {
    // A misspelt key first: it is often why another one looks missing (`plna` leaves `plan` undefined).
    const unknownKey = shape.error.issues.find((issue) => issue.code === "unrecognized_keys");
    if (unknownKey !== undefined) {
      throw new UnknownKeyError(`environment ${name}: ${[...unknownKey.path, unknownKey.keys[0] ?? ""].map(String).join(".")}`, unknownKey.message);
    }
    const issue = shape.error.issues[0];
    throw new EnvironmentModuleError(name, `the environment it returned has a bad "${issue?.path.map(String).join(".") || "(root)"}": ${issue?.message ?? "invalid"}`);
  }
  return environment as Environment;
}

/** Why `import()` refused a module, told apart: a package Node cannot resolve, a missing file, or a file that is not JavaScript it can run. */
function whyNotLoaded(error: unknown): string {
  const message = (error as Error).message;
  const code = (error as { code?: unknown }).code;
  const missingPackage = /Cannot find package '([^']+)'/.exec(message)?.[1];
  if (code === "ERR_MODULE_NOT_FOUND" && missingPackage !== undefined) {
    return `it imports the package "${missingPackage}", which Node cannot resolve from the module's folder; install it in the project that holds the module (npm install ${missingPackage}): ES modules do not read NODE_PATH`;
  }
  if (code === "ERR_MODULE_NOT_FOUND") return `a file it names does not exist (${message})`;
  if (/Cannot use import statement outside a module|Unexpected token 'export'/.test(message)) {
    return `it is an ES module in a CommonJS package (${message}); name it .mjs, or add "type": "module" to the package.json beside it`;
  }
  if (error instanceof SyntaxError || code === "ERR_UNKNOWN_FILE_EXTENSION") return `it is not JavaScript Node can run (${message}); give a .js or .mjs file (compile TypeScript first)`;
  return message;
}
