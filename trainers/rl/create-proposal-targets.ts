import type { Arena } from "../../src/arena/arena.js";
import { InvalidInputError } from "../../src/core/errors.js";
import type { JsonObject } from "../../src/core/json.js";
import { openPrmScorer, type OpenPrmScorer } from "../../src/curriculum/prm/open-prm-scorer.js";
import { clusterNames } from "../../src/examples/arithmetic/arithmetic-task.js";
import type { FrontierConfiguration } from "./frontier-configuration.js";
import { FrontierTargets } from "./frontier-targets.js";
import type { ProposalTargets } from "./proposal-targets.js";
import type { SelfPlayConfiguration } from "./self-play-configuration.js";
import { UniformTargets } from "./uniform-targets.js";

/** The PRM the `prm` frontier scores clusters with; undefined in `uniform` mode. Opened before anything else, so a bad PRM costs nothing. */
export async function openFrontierPrm(frontier: FrontierConfiguration): Promise<OpenPrmScorer | undefined> {
  if (frontier.mode === "uniform") return undefined;
  if (frontier.prmPath === undefined) throw new InvalidInputError("frontier.prmPath", "a PRM directory (selfplay prm train --out DIR) when frontier.mode is prm");
  return openPrmScorer(frontier.prmPath);
}

/**
 * The target chooser of the configuration's frontier mode: uniform draws from
 * the arena, or the frontier over `prm` (which it disposes); `snapshot` is a
 * checkpoint's, to resume from.
 */
export function createProposalTargets(configuration: SelfPlayConfiguration, arena: Arena, prm: OpenPrmScorer | undefined, snapshot: JsonObject | null | undefined): ProposalTargets {
  if (!prm) return new UniformTargets(arena);
  return new FrontierTargets({
    clusters: clusterNames(),
    scorer: prm.scorer,
    seed: configuration.seed,
    ...(configuration.frontier.settings && { settings: configuration.frontier.settings }),
    ...(snapshot && { snapshot }),
    disposeScorer: prm.dispose,
  });
}
