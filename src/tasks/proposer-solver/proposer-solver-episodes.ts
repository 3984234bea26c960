import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import { AnswerExtractorSchema } from "../../core/answers/answer-extractors.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { ProposerEpisode } from "./proposer-episode.js";
import { SolverEpisode } from "./solver-episode.js";
import { SolverPromptSchema } from "./solver-prompt.js";

/** The JSON options of the two episodes (the defaults are the episodes' own: the bundled base's text forms). */
export const ProposerSolverEpisodesOptionsSchema = z.strictObject({
  /** Solver sub-episodes per valid problem, an integer from 1. Default 4. */
  solvers: z.number().int().min(1).optional(),
  /** `text` (`a±b` on the first line) or `json` (`{"problem": "<expression>"}` under a grammar, executed). Default `text`. */
  proposal: z.enum(["text", "json"]).optional(),
  /** Completion tokens of a proposal. Default 12. */
  proposerMaxTokens: z.number().int().min(1).optional(),
  /** Drop proposals of the arithmetic task's held-out split (what the evaluation asks). Default false. */
  dropHeldOut: z.boolean().optional(),
  /** `bare` (`12+7=`) or `words` (`What is 12 + 7?`). Default `bare`. */
  solverPrompt: SolverPromptSchema.optional(),
  /** The solver's system prompt. Default `Solve the arithmetic problem. Reply with the number only.` */
  solverSystem: z.string().min(1).optional(),
  /** Completion tokens of an answer. Default 8. */
  solverMaxTokens: z.number().int().min(1).optional(),
  /** How the solver's answer is read (`tolerant`, `first-integer`, … core's extractors). Default `first-integer`. */
  extractor: AnswerExtractorSchema.optional(),
});
export type ProposerSolverEpisodesOptions = z.input<typeof ProposerSolverEpisodesOptionsSchema>;

/**
 * The episodes of `selfplay run proposer-solver`, as an episode-module
 * factory of their JSON options: the proposer and the solver its
 * sub-episodes run (a worker runs them itself, so the module gives both).
 */
export function createProposerSolverEpisodes(options?: JsonValue): Episode[] {
  const parsed = parseInput(ProposerSolverEpisodesOptionsSchema, options ?? {}, { fieldName: (path) => `episodes.options.${path.map(String).join(".")}` });
  const { solvers, proposal, proposerMaxTokens, dropHeldOut, solverPrompt, solverSystem, solverMaxTokens, extractor } = parsed;
  return [
    new ProposerEpisode({ solvers, proposal, maxTokens: proposerMaxTokens, dropHeldOut }),
    new SolverEpisode({ prompt: solverPrompt, system: solverSystem, maxTokens: solverMaxTokens, extractor }),
  ];
}

/** This module as a RolloutPool episode module (its compiled JavaScript), with the episodes' options. */
export function proposerSolverEpisodeModule(options?: ProposerSolverEpisodesOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createProposerSolverEpisodes", ...(options && { options }) };
}
