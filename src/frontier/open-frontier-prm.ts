import { InvalidInputError } from "../core/errors/index.js";
import { openPrmScorer, type OpenPrmScorer } from "./prm/open-prm-scorer.js";
import type { FrontierConfiguration } from "./frontier-configuration.js";

/** The PRM the `prm` frontier scores clusters with; undefined in the other modes. Opened before anything else, so a bad PRM costs nothing. */
export async function openFrontierPrm(frontier: FrontierConfiguration): Promise<OpenPrmScorer | undefined> {
  if (frontier.mode !== "prm") return undefined;
  if (frontier.prmPath === undefined) throw new InvalidInputError("frontier.prmPath", "a PRM directory (selfplay prm train --out DIR) when frontier.mode is prm");
  return openPrmScorer(frontier.prmPath);
}
