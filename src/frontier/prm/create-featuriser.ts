import { PrmModelError } from "../errors/index.js";
import type { Featuriser } from "./featuriser.js";
import type { FeaturiserSettings } from "./featuriser-settings.js";
import { HashedNgramFeaturiser } from "./hashed-ngram-featuriser.js";

/**
 * The featuriser saved settings describe. A hashed n-gram featuriser is made
 * from its settings alone; an embedding featuriser needs a loaded model, so
 * the caller passes it as `provided` and it is checked against the settings.
 */
export function createFeaturiser(settings: FeaturiserSettings, provided: Featuriser | undefined, source: string): Featuriser {
  if (!provided && settings.kind === "embedding") {
    throw new PrmModelError(source, `this PRM reads embeddings of ${settings.model}; load that model and pass its embedding featuriser`);
  }
  const featuriser = provided ?? new HashedNgramFeaturiser(settings);
  const sameHashing =
    settings.kind !== "hashed-ngram" || (featuriser.settings.kind === "hashed-ngram" && featuriser.settings.maxNgram === settings.maxNgram);
  if (featuriser.settings.kind !== settings.kind || featuriser.dimensions !== settings.dimensions || !sameHashing) {
    throw new PrmModelError(
      source,
      `the PRM was trained on ${settings.kind} features of width ${settings.dimensions}, ` +
        `the featuriser given makes ${featuriser.settings.kind} features of width ${featuriser.dimensions}; use the same featuriser`,
    );
  }
  return featuriser;
}
