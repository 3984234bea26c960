import type { ChallengeCluster } from "../challenges/challenge-cluster.js";
import type { ChallengeTier } from "../challenges/challenge-tier.js";
import type { RandomStream } from "../../core/random/random-stream.js";

/** What a template renders from: the tier's size and twist, and the stream its data comes from. */
export interface TemplateRenderContext {
  tier: ChallengeTier;
  /** 1 at basic … 4 at expert: the factor on the template's base problem size. */
  sizeMultiplier: number;
  /** True at advanced and expert: the template's twist is on, and its prompt says so. */
  hardMode: boolean;
  /** Every random choice of the rendering comes from here. */
  stream: RandomStream;
}

/** A template's rendering: the challenge's programs and prompt, and a solution known to pass. */
export interface RenderedTemplate {
  prompt: string;
  /** Writes the fixtures (their content is fixed at rendering, so the setup is deterministic). */
  setup: string;
  /** Computes the expected answer from the fixtures, then reads the output file; exit 0 = pass. */
  validator: string;
  outputFile: string;
  /** A solution that passes: tests prove every rendering solvable and its validator correct with it. */
  referenceSolution: string;
}

/** One challenge shape of a cluster, renderable at any tier. */
export interface ChallengeTemplate {
  /** Unique across templates, `cluster/name`; `pickTemplate` never returns the same key twice in a row. */
  key: string;
  cluster: ChallengeCluster;
  render(context: TemplateRenderContext): RenderedTemplate;
}
