import { join, resolve } from "node:path";
import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { CAPTURE_OBJECTIVES } from "../../tournament/detectors/capture-objectives.js";
import { citizenSeatIssues } from "../../tournament/episode/citizen-seat-issues.js";
import { TournamentRoleTextSchema } from "../../tournament/episode/tournament-role.js";
import { CitizenIdSchema } from "../../tournament/world/actions.js";
import type { Environment } from "../../environments/environment.js";
import { LlmPromptFormSchema } from "../../tournament/agents/llm/llm-citizen-agent.js";
import { citizenFigures } from "./citizen-figures.js";
import { evaluateTournament } from "./evaluate-tournament.js";
import { summariseTournamentRun } from "./summarise-tournament-run.js";
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
  /**
   * Citizens played by `opponent`, a model the run does not train, each a Role
   * like the LLM citizens (same prompt and action grammar, its own reward) and
   * bound to the frozen policy, so the run's `opponents` (current, frozen,
   * league) decide who plays them. Needs `opponent`. Default none.
   */
  opponentCitizens: z.array(CitizenIdSchema).min(1).optional(),
  /** What the opponent citizens play for, as `role` (a red one is its own red team). Needs `opponentCitizens`. Default `honest`. */
  opponentRole: TournamentRoleTextSchema.optional(),
  /**
   * Binds the opponent citizens (`opponentCitizens`) to a frozen policy:
   * `"base"` (the run's base model) or the path of a GGUF model or LoRA
   * adapter (a checkpoint). Default: none, the policy plays only `llmCitizens`.
   */
  opponent: z.string().min(1).optional(),
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
  /** How each turn is put to the model: `compact` (the state lines alone: the bundled base's) or `chat` (a system message with the goal and the actions, the state in words: an instruction-tuned model's). Default `compact`. */
  prompt: LlmPromptFormSchema.default("compact"),
  /** Tokens per action: 112 fits compact JSON a token a byte (the bundled base); about 35 does on SmolLM2's vocabulary. Default 112. */
  maxTokens: z.int().min(8).default(112),
  /** Reward taken off per refused action. Default 0.1. */
  rejectionPenalty: z.number().min(0).default(0.1),
  /** Held-out episodes per evaluation (greedy, on seeds after the training ones): the share played without a refusal or invalid output (and, for a red team, with its objective reached). Default 16. */
  evaluateEpisodes: z.int().min(1).default(16),
  /** Sampling temperature of the LLM citizens. Default 1. */
  temperature: z.number().min(0).default(1),
  /**
   * Positions a sequence of the engine holds (prompt and action). Default: the
   * model's context capped at 2,048 (SmolLM2's chat prompt and an action are
   * under 300 tokens: 512 is room enough).
   */
  contextSize: z.int().min(16).optional(),
})
  .superRefine((options, context) => {
    for (const { path, message } of citizenSeatIssues(options)) context.addIssue({ code: "custom", path, message });
    if (options.opponentCitizens !== undefined && options.opponent === undefined) {
      context.addIssue({ code: "custom", path: ["opponent"], message: `"base" or the path of a GGUF model or LoRA adapter: the policy that plays opponentCitizens` });
    }
    for (const field of ["opponent", "opponentRole"] as const) {
      if (options[field] !== undefined && options.opponentCitizens === undefined) context.addIssue({ code: "custom", path: ["opponentCitizens"], message: `the citizens ${field} is for, e.g. ["c1"] (or leave out ${field})` });
    }
  });
export type TournamentEnvironmentOptions = z.input<typeof TournamentEnvironmentOptionsSchema>;

const TOURNAMENT = "tournament";

/**
 * `selfplay train --env tournament`: the policy plays one or more citizens of
 * the commons under a constitution kernel, every action strict JSON under a
 * grammar of its own citizen's actions and judged by the legality gate;
 * scripted honest agents play the rest (a scripted red team some of them,
 * with `scriptedRed`), or, with `opponentCitizens`, a frozen `opponent`
 * plays some of them as Roles of their own (`frozenRoles`). Each step plays
 * `prompts` world seeds `groupSize` times each, so GRPO compares the
 * policy's play in the same world. Rewards: see TournamentEpisode.
 */
export function createTournamentEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(TournamentEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const { kernel: kernelOption, seeds, prompts, groupSize, temperature, evaluateEpisodes, opponent, contextSize, ...episode } = parsed;
  // Absolute, so that pool workers and a resumed run read the same file.
  const kernel = kernelOption === undefined ? defaultKernelPath() : resolve(kernelOption);
  const heldOutSeeds = Array.from({ length: evaluateEpisodes }, (_, index) => seeds + index);
  return {
    name: TOURNAMENT,
    episodes: tournamentEpisodeModule({ kernel, episode }),
    stores: { [TOURNAMENT]: ArtifactStore.of(Array.from({ length: seeds }, (_, seed) => ({ seed })), { capacity: seeds }) },
    plan: [{ episodeType: TOURNAMENT, count: prompts, groupSize }],
    ...(opponent !== undefined && { frozenRoles: Object.fromEntries((parsed.opponentCitizens ?? []).map((citizen) => [citizen, opponent])) }),
    ...(contextSize !== undefined && { contextSize }),
    samplerDefaults: { temperature, maxTokens: parsed.maxTokens },
    evaluate: (client) => evaluateTournament(client, { kernel, episode, seeds: heldOutSeeds }),
    summarise: (results) => tournamentStepSummary(results, parsed.llmCitizens, parsed.opponentCitizens ?? []),
    summariseRun: summariseTournamentRun,
  };
}

/**
 * A step's LLM citizens: their mean outcome, the share of their submissions
 * the gate refused, invalid outputs, submissions and refusals; the opponent
 * citizens' same figures apart (`opponentMeanOutcome` …); and the episodes
 * with a capture finding, as a share and a count.
 */
function tournamentStepSummary(results: readonly GenerateResult[], llmCitizens: readonly string[], opponentCitizens: readonly string[]): Record<string, number> {
  const scored = results.filter((result) => result.outcome.status === "scored");
  const episodesWithFindings = scored.filter((result) => (result.rollout.artifacts.findings as unknown[]).length > 0).length;
  return {
    ...citizenFigures(results, llmCitizens),
    ...(opponentCitizens.length > 0 && citizenFigures(results, opponentCitizens, "opponent")),
    findingRate: episodesWithFindings / Math.max(scored.length, 1),
    episodesWithFindings,
  };
}
