import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import type { Episode } from "../../core/episodes/episode.js";
import { EpisodeModuleError } from "./errors/index.js";
import { JsonValueSchema, type JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";

/**
 * Where pool workers get their episodes: a worker cannot receive class
 * instances, so each one imports this module and calls its factory.
 */
export const EpisodeModuleSchema = z.strictObject({
  /**
   * The module: a `file:` URL, an absolute path, a path starting with `./` or
   * `../` (from the current directory), or a package specifier (resolved from
   * selfplay's own folder). It must be JavaScript that Node loads as is
   * (workers do not compile TypeScript).
   */
  module: z.string().min(1),
  /** The export to call: `(options) => Episode[]` (or a promise of them). Default `"default"`. */
  exportName: z.string().min(1).default("default"),
  /** Passed to the factory; JSON, because it is copied into every worker. */
  options: JsonValueSchema.optional(),
});
export type EpisodeModule = z.output<typeof EpisodeModuleSchema>;
export type EpisodeModuleInput = z.input<typeof EpisodeModuleSchema>;

/** A factory an episode module exports. */
export type EpisodeFactory = (options: JsonValue | undefined) => readonly Episode[] | Promise<readonly Episode[]>;

/** The specifier `import()` needs: paths become file URLs so that every thread resolves them alike. */
export function episodeModuleSpecifier(module: string): string {
  if (module.startsWith("file:")) return module;
  if (isAbsolute(module) || module.startsWith("./") || module.startsWith("../")) return pathToFileURL(resolve(module)).href;
  return module;
}

/**
 * Imports an episode module and calls its factory. The main thread calls it
 * too, to register the same episodes (with their artifact stores) in the arena.
 */
export async function loadEpisodeModule(input: EpisodeModuleInput): Promise<Episode[]> {
  const spec = parseInput(EpisodeModuleSchema, input, { fieldName: (path) => `episodes.${path.map(String).join(".")}` });
  let exports: Record<string, unknown>;
  try {
    exports = (await import(episodeModuleSpecifier(spec.module))) as Record<string, unknown>;
  } catch (error) {
    throw new EpisodeModuleError(spec.module, `does not load (${(error as Error).message}); give a JavaScript file (compile TypeScript first)`);
  }
  const factory = exports[spec.exportName];
  if (typeof factory !== "function") {
    throw new EpisodeModuleError(
      spec.module,
      `export "${spec.exportName}" is ${typeof factory}, not a factory; export a function (options) => Episode[] under that name ` +
        `(exports: ${Object.keys(exports).join(", ") || "none"})`,
    );
  }
  const episodes: unknown = await (factory as EpisodeFactory)(spec.options);
  if (!Array.isArray(episodes) || episodes.some((episode) => typeof (episode as Partial<Episode> | null)?.type !== "string")) {
    throw new EpisodeModuleError(spec.module, `export "${spec.exportName}" must return an array of episodes (objects with a string \`type\`)`);
  }
  return episodes as Episode[];
}
