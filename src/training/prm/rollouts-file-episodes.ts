import { dirname } from "node:path";
import type { LabelledEpisodes } from "../../frontier/labelling/labelled-episodes.js";
import type { Environment } from "../../environments/environment.js";
import type { JsonValue } from "../../core/json.js";
import { runEnvironment } from "../loop/run-environment.js";
import { labelledEpisodesOf } from "./labelled-episodes-of.js";

/**
 * The labelled episodes of each rollouts file, for `readRolloutTrajectories`:
 * those of `environment` (a built-in name or a module path, at its default
 * options) when given, else of the environment the file's run folder was
 * trained on, with the run's options. Each environment is loaded once, by
 * `loadEnvironment` (the tasks' `loadEnvironment`, or `loadEnvironmentFrom`
 * over a registry of one's own).
 */
export function rolloutsFileEpisodes(loadEnvironment: (name: string, options?: JsonValue) => Promise<Environment>, environment?: string): (file: string) => Promise<LabelledEpisodes> {
  const loaded = new Map<string, Promise<LabelledEpisodes>>();
  return async (file) => {
    const { name, options } = environment === undefined ? await runEnvironment(dirname(file)) : { name: environment, options: undefined };
    const key = JSON.stringify([name, options ?? null]);
    const episodes = loaded.get(key) ?? loadEnvironment(name, options).then(labelledEpisodesOf);
    loaded.set(key, episodes);
    return episodes;
  };
}
