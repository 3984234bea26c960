import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { DreamEpisode } from "./dream-episode.js";

/** The sandbox limits a grading run gets (JSON: pool workers get a copy). */
export const DreamSandboxSettingsSchema = z.strictObject({
  /** Wall-clock limit of each program in milliseconds. Default 10000. */
  timeoutMs: z.number().int().min(100).max(600_000).default(10_000),
  /** Memory cap of each program in MiB. Default 256. */
  memoryMb: z.number().int().min(64).max(65_536).default(256),
});

/** The episode options, JSON because pool workers get a copy. */
export const DreamEpisodesOptionsSchema = z.strictObject({ maxTokens: z.number().int().min(1), sandbox: DreamSandboxSettingsSchema });
export type DreamEpisodesOptions = z.input<typeof DreamEpisodesOptionsSchema>;

/** The episode-module factory of the `dream` environment. */
export function createDreamEpisodes(options?: JsonValue): Episode[] {
  return [new DreamEpisode(parseInput(DreamEpisodesOptionsSchema, options ?? {}))];
}

/** This module as an episode module (its compiled JavaScript), with the factory's options. */
export function dreamEpisodeModule(options: DreamEpisodesOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createDreamEpisodes", options: options as JsonValue };
}
