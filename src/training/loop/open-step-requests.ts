import type { Arena } from "../../arena/arena.js";
import type { JsonObject } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { Environment, EnvironmentClusters } from "../../environments/environment.js";
import type { FrontierConfiguration } from "../../frontier/frontier-configuration.js";
import { GroupSizingSettingsSchema } from "../../frontier/learnable/group-sizing-settings.js";
import { PassRateWindowSettingsSchema } from "../../frontier/learnable/pass-rate-window-settings.js";
import type { OpenPrmScorer } from "../../frontier/prm/open-prm-scorer.js";
import { FrontierRequests } from "./frontier-requests.js";
import { LearnableRequests } from "./learnable-requests.js";
import { SizedGroupRequestsSnapshotSchema, SizedGroupRequests } from "./sized-group-requests.js";
import type { StepRequests } from "./step-requests.js";
import { UniformRequests } from "./uniform-requests.js";

export interface OpenStepRequestsOptions {
  environment: Environment;
  arena: Arena;
  frontier: FrontierConfiguration;
  /** The PRM `openFrontierPrm` opened (prm mode). */
  prm: OpenPrmScorer | undefined;
  seed: number;
  /** The checkpoint's `frontier` state, on a resume. */
  snapshot?: JsonObject | null;
}

/**
 * The step requests `frontier` configures: the selection (uniform, the PRM
 * frontier, or the learnable frontier), wrapped in adaptive group sizing when
 * that is on — whose checkpoint state then holds the selection's under `selection`.
 */
export function openStepRequests(options: OpenStepRequestsOptions): StepRequests {
  const { environment, arena, frontier, prm, seed } = options;
  const sizing = parseInput(GroupSizingSettingsSchema, frontier.groupSizing ?? {}, { fieldName: (path) => `frontier.groupSizing.${path.map(String).join(".")}` });
  const sized = sizing.mode === "adaptive" && options.snapshot ? parseInput(SizedGroupRequestsSnapshotSchema, options.snapshot, { fieldName: (path) => `checkpoint.frontier.${path.map(String).join(".")}` }) : undefined;
  const snapshot = (sizing.mode === "adaptive" ? sized?.selection : options.snapshot) ?? undefined;
  const selection: StepRequests = prm
    ? new FrontierRequests({ environment, arena, scorer: prm.scorer, seed, ...(frontier.settings && { settings: frontier.settings }), ...(snapshot && { snapshot }), disposeScorer: prm.dispose })
    : frontier.mode === "learnable"
      ? new LearnableRequests({ environment, arena, seed, ...(frontier.learnable && { settings: frontier.learnable }), ...(frontier.passRates && { passRates: frontier.passRates }), ...(snapshot && { snapshot }) })
      : new UniformRequests(arena, environment);
  if (sizing.mode === "off") return selection;
  return new SizedGroupRequests(selection, {
    // assertFrontierFits refused adaptive sizing for an environment without clusters.
    environment: environment as Environment & { clusters: EnvironmentClusters },
    settings: sizing,
    passRates: parseInput(PassRateWindowSettingsSchema, frontier.passRates ?? {}),
    ...(sized && { snapshot: sized.passRates }),
  });
}
