import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import { episodeModuleSpecifier, type EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import { JsonValueSchema, type JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { Environment, EnvironmentFactory } from "../../environments/environment.js";
import { ENVIRONMENT_FACTORY_EXPORT } from "../../environments/load-environment.js";
import { datasetHarness, type DatasetHarness } from "./dataset-harness.js";
import { DatasetEpisode } from "./dataset-episode.js";
import { DatasetFunctionsUnavailableError } from "./errors/index.js";

/** The episode options, JSON because pool workers get a copy: the functions stay behind, under `key`. */
export const DatasetEpisodesOptionsSchema = z.strictObject({
  /** The environment's name (for messages). */
  name: z.string().min(1),
  /** The harness's key in the thread that made the environment. */
  key: z.string().min(1),
  maxTokens: z.number().int().min(1),
  /** The student's sampling temperature; absent: the run's. */
  temperature: z.number().positive().optional(),
  /** The module whose `createEnvironment(options)` makes the environment again, in a thread without its harness. */
  source: z.strictObject({ module: z.string().min(1), options: JsonValueSchema.optional() }).optional(),
});
export type DatasetEpisodesOptions = z.infer<typeof DatasetEpisodesOptionsSchema>;

/**
 * The episode-module factory of a dataset environment. In the thread that
 * made it, the harness is at hand; a pool worker imports `source` and makes
 * the environment again, which registers its own harness there.
 */
export async function createDatasetEpisodes(options?: JsonValue): Promise<Episode[]> {
  const parsed = parseInput(DatasetEpisodesOptionsSchema, options ?? {}, { fieldName: (path) => `episodes.options.${path.map(String).join(".")}` });
  const harness = datasetHarness(parsed.key) ?? (await harnessFromSource(parsed));
  return [new DatasetEpisode(harness, parsed.maxTokens, parsed.temperature)];
}

async function harnessFromSource({ name, source }: DatasetEpisodesOptions): Promise<DatasetHarness> {
  if (source === undefined) throw new DatasetFunctionsUnavailableError(name);
  const exports = (await import(episodeModuleSpecifier(source.module))) as Record<string, unknown>;
  const factory = exports[ENVIRONMENT_FACTORY_EXPORT] as EnvironmentFactory | undefined;
  if (typeof factory !== "function") throw new DatasetFunctionsUnavailableError(name);
  const environment: Environment = await factory(source.options);
  const key = (environment.episodes.options as { key?: unknown } | undefined)?.key;
  const harness = typeof key === "string" ? datasetHarness(key) : undefined;
  if (harness === undefined) throw new DatasetFunctionsUnavailableError(name);
  return harness;
}

/** This module as an episode module (its compiled JavaScript), with the factory's options. */
export function datasetEpisodeModule(options: DatasetEpisodesOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createDatasetEpisodes", options };
}
