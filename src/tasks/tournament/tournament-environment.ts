import { join, resolve } from "node:path";
import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { CAPTURE_OBJECTIVES } from "../../tournament/detectors/capture-objectives.js";
import { TournamentRoleTextSchema } from "../../tournament/episode/tournament-role.js";
import { CitizenIdSchema } from "../../tournament/world/actions.js";
import type { Environment } from "../../environments/environment.js";
import { evaluateTournament } from "./evaluate-tournament.js";
import { tournamentEpisodeModule } from "./tournament-episodes.js";
import { packageRoot } from "../../core/package-root.js";

/** The package's `constitutions/constitution-0.1.0.yaml` (this file is src/tasks/tournament/ in the source, dist/src/… when built). */
export function defaultKernelPath(): string {
  return join(packageRoot(import.meta.url), "constitutions", "constitution-0.1.0.yaml");
}

/** The options of the `tournament` environment. */
export const TournamentEnvironmentOptionsSchema = z.strictObject({
  /** The constitution YAML. Default the shipped constitutions/constitution-0.1.0.yaml. */
  kernel: z.string().min(1).optional(),
  /** Rounds each episode plays. Default 2. */
  rounds: z.int().min(1).max(50).default(2),
  /** Citizens in the world. Default 5. */
  citizens: z.int().min(2).max(100).default(5),
  /** The citizens the policy plays (each a Role named after it); scripted honest agents play the rest. Default `["c0"]`. */
  llmCitizens: z.array(CitizenIdSchema).min(1).default(["c0"]),
  /** `honest` (rewarded by the worst-off citizen's share) or `red:<objective>` (by the capture score of treasury-drain, faction-suppression, emergency-overstay or exit-blocking). Default `honest`. */
  role: TournamentRoleTextSchema.default("honest"),
  /** World seeds the steps draw from (0 … seeds−1); the evaluation plays the ones after. Default 64. */
  seeds: z.int().min(1).default(64),
  /** Seeds per step. Default 4. */
  prompts: z.int().min(1).default(4),
  /** Episodes per seed: the GRPO group, one world played several times. Default 4. */
  groupSize: z.int().min(2).default(4),
  /** A scripted red team among the other citizens, e.g. `{"objective": "treasury-drain", "citizens": ["c3", "c4"]}`. Default none (every other citizen honest). */
  scriptedRed: z.strictObject({ objective: z.enum(CAPTURE_OBJECTIVES), citizens: z.array(CitizenIdSchema).min(1) }).optional(),
  /** Tries per turn before the citizen passes. Default 2. */
  maxAttemptsPerTurn: z.int().min(1).max(10).default(2),
  /** Tokens per action. Default 112. */
  maxTokens: z.int().min(8).default(112),
  /** Reward taken off per refused action. Default 0.1. */
  rejectionPenalty: z.number().min(0).default(0.1),
  /** Held-out episodes per evaluation (greedy, on seeds after the training ones): the share played without a refusal or invalid output (and, for a red team, with its objective reached). Default 16. */
  evaluateEpisodes: z.int().min(1).default(16),
  /** Sampling temperature of the LLM citizens. Default 1. */
  temperature: z.number().min(0).default(1),
})
  .superRefine((options, context) => {
    const seated = [...options.llmCitizens.map((citizen, index) => ({ citizen, path: ["llmCitizens", index] })), ...(options.scriptedRed?.citizens ?? []).map((citizen, index) => ({ citizen, path: ["scriptedRed", "citizens", index] }))];
    seated.forEach(({ citizen, path }, index) => {
      if (Number(citizen.slice(1)) >= options.citizens) context.addIssue({ code: "custom", path, message: `a citizen of the world (c0 … c${options.citizens - 1}); raise citizens or name another` });
      else if (seated.findIndex((other) => other.citizen === citizen) !== index) context.addIssue({ code: "custom", path, message: "each citizen once, in one of llmCitizens and scriptedRed.citizens" });
    });
  });
export type TournamentEnvironmentOptions = z.input<typeof TournamentEnvironmentOptionsSchema>;

const TOURNAMENT = "tournament";

/**
 * `selfplay train --env tournament`: the policy plays one or more citizens of
 * the commons under a constitution kernel, every action strict JSON under a
 * grammar of its own citizen's actions and judged by the legality gate;
 * scripted honest agents play the rest (a scripted red team some of them,
 * with `scriptedRed`). Each step plays `prompts` world
 * seeds `groupSize` times each, so GRPO compares the policy's play in the
 * same world. Rewards: see TournamentEpisode.
 */
export function createTournamentEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(TournamentEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const { kernel: kernelOption, seeds, prompts, groupSize, temperature, evaluateEpisodes, ...episode } = parsed;
  // Absolute, so that pool workers and a resumed run read the same file.
  const kernel = kernelOption === undefined ? defaultKernelPath() : resolve(kernelOption);
  const heldOutSeeds = Array.from({ length: evaluateEpisodes }, (_, index) => seeds + index);
  return {
    name: TOURNAMENT,
    episodes: tournamentEpisodeModule({ kernel, episode }),
    stores: { [TOURNAMENT]: ArtifactStore.of(Array.from({ length: seeds }, (_, seed) => ({ seed })), { capacity: seeds }) },
    plan: [{ episodeType: TOURNAMENT, count: prompts, groupSize }],
    samplerDefaults: { temperature, maxTokens: parsed.maxTokens },
    evaluate: (client) => evaluateTournament(client, { kernel, episode, seeds: heldOutSeeds }),
    summarise: tournamentStepSummary,
  };
}

interface CitizenSummary {
  outcome: number;
  submitted: number;
  rejected: number;
  invalid: number;
}

/** A step's LLM citizens: their mean outcome, the share of their submissions the gate refused, invalid outputs, and episodes with a capture finding. */
function tournamentStepSummary(results: readonly GenerateResult[]): Record<string, number> {
  const scored = results.filter((result) => result.outcome.status === "scored");
  const citizens = scored.flatMap((result) => Object.values(result.rollout.artifacts.citizens as unknown as Record<string, CitizenSummary>));
  const sum = (pick: (citizen: CitizenSummary) => number) => citizens.reduce((total, citizen) => total + pick(citizen), 0);
  return {
    meanOutcome: sum((citizen) => citizen.outcome) / Math.max(citizens.length, 1),
    rejectedShare: sum((citizen) => citizen.rejected) / Math.max(sum((citizen) => citizen.submitted), 1),
    invalidOutputs: sum((citizen) => citizen.invalid),
    findingRate: scored.filter((result) => (result.rollout.artifacts.findings as unknown[]).length > 0).length / Math.max(scored.length, 1),
  };
}
