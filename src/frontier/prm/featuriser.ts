import type { FeaturiserSettings } from "./featuriser-settings.js";
import type { PrmState } from "./prm-state.js";

/** Turns states into fixed-width feature vectors, the PRM's input. */
export interface Featuriser {
  /** What to save with a trained PRM so scoring featurises the same way. */
  readonly settings: FeaturiserSettings;
  /** Width of every vector `featurise` returns. */
  readonly dimensions: number;
  /** One vector per state, in order. */
  featurise(states: readonly PrmState[]): Promise<Float32Array[]>;
}
