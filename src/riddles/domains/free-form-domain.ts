import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import { StructuredOutputError } from "../../core/errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema } from "../../core/schemas/role.js";
import { extractJson } from "../../core/structured/extract-json.js";
import {
  AnswerGradeSchema,
  RiddleSchema,
  RiddleValiditySchema,
  SolverAnswerSchema,
  type AnswerGrade,
  type Riddle,
  type RiddleValidity,
  type SolverAnswer,
} from "../riddle-contracts.js";
import { FREE_FORM_EXAMPLES } from "./free-form-examples.js";
import { FreeFormSettingsSchema, type FreeFormDomainOptions, type FreeFormSettings } from "./free-form-settings.js";
import { RIDDLE_ROLE_IDS, type DraftRequest, type RiddleDomain, type RiddleDraft, type SolveRequest } from "./riddle-domain.js";

export type { FreeFormDomainOptions } from "./free-form-settings.js";

/** Longest partner summary kept: the discussion itself is never stored. */
const MAX_PARTNER_SUMMARY = 160;

/** Stands in for a draft that did not parse, so the riddler's single Step is returned to be moved out of training. */
const UNPARSED: Riddle = { riddle: "-", solution: "-", solutionRationale: "", tags: [], difficultyGuessPct: 50, gradingRules: "" };

const RIDDLER_PROMPT =
  "You are the riddler. Write one riddle that about the target share of solvers will solve. Reply with JSON only: " +
  '{"riddle","solution","solutionRationale","tags","difficultyGuessPct","gradingRules"} — gradingRules say how an answer is judged correct.';
const SOLVER_PROMPT =
  'You solve riddles. Reply with JSON only: {"finalAnswer","confidence" (0-1),"checks" (short),"helpRequest":{"needed","whatITried","whereIAmStuck"}}. No reasoning text.';
const PARTNER_PROMPT = "You are a partner helping a stuck solver. Give one short hint, not the answer.";
const CRITIC_VALIDITY = 'You are the critic. Is the riddle valid: solvable, and is the solution right given its rationale? Reply JSON {"valid","notes"}.';
const CRITIC_GRADE = 'You are the critic. Grade the answer against the solution by the grading rules; do not solve anew. Reply JSON {"correct","notes"}.';

/**
 * Free-form riddles for a real model: every role writes strict JSON of the
 * riddle contracts, and an LLM critic (judge calls, never Steps) checks
 * validity and grades answers against the riddler's solution and rules.
 * Token budgets and worked exchanges come from its settings (the config's
 * `freeForm`).
 */
export class FreeFormDomain implements RiddleDomain {
  readonly name = "free-form" as const;
  readonly helpRequests = true;
  readonly roles: RiddleDomain["roles"];
  private readonly settings: FreeFormSettings;

  constructor(options: FreeFormDomainOptions = {}) {
    this.settings = parseInput(FreeFormSettingsSchema, options, { fieldName: (path) => `freeForm.${path.map(String).join(".")}` });
    const { riddlerMaxTokens, solverMaxTokens, partnerMaxTokens } = this.settings;
    this.roles = {
      riddler: RoleSchema.parse({ id: RIDDLE_ROLE_IDS.riddler, systemPrompt: RIDDLER_PROMPT, sampler: { maxTokens: riddlerMaxTokens } }),
      solver: RoleSchema.parse({ id: RIDDLE_ROLE_IDS.solver, systemPrompt: SOLVER_PROMPT, sampler: { maxTokens: solverMaxTokens } }),
      partner: RoleSchema.parse({ id: RIDDLE_ROLE_IDS.partner, systemPrompt: PARTNER_PROMPT, sampler: { maxTokens: partnerMaxTokens } }),
    };
  }

  /** The worked exchange before a request of `kind`, when the settings ask for one. */
  private examples(kind: keyof typeof FREE_FORM_EXAMPLES): Messages {
    return this.settings.workedExamples ? FREE_FORM_EXAMPLES[kind] : [];
  }

  async draftRiddle(context: EpisodeContext, request: DraftRequest): Promise<RiddleDraft> {
    const { artifact, config } = request;
    const recent = artifact.recentRiddles.slice(-3).map((riddle) => `- ${riddle.slice(0, 120)}`).join("\n");
    const lines = [
      `Target: ${Math.round(config.reward.targetSolveRate * 100)}% of ${config.solvers} solvers solve it.`,
      artifact.riddlerMemory && `Memory:\n${artifact.riddlerMemory}`,
      recent && `Do not repeat these recent riddles:\n${recent}`,
      request.previousNotes && `Your last riddle was rejected: ${request.previousNotes}`,
      "Write one new riddle.",
    ];
    // One attempt a draft: a draft that does not parse is a rejected draft (its Step left out of training), not a resample.
    let problem = "";
    const messages: Messages = [...this.examples("riddler"), { role: "user", content: lines.filter(Boolean).join("\n") }];
    const { value, response } = await context.callModelForObject(RIDDLE_ROLE_IDS.riddler, messages, RiddleSchema, {
      maxAttempts: 1,
      parse: (text) => {
        try {
          const candidate = extractJson(text);
          const checked = RiddleSchema.safeParse(candidate);
          if (checked.success) return candidate;
          const issue = checked.error.issues[0];
          problem = `${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"}`;
        } catch (error) {
          problem = error instanceof Error ? error.message : String(error);
        }
        return UNPARSED;
      },
    });
    if (problem) {
      response.step.structured = { attempt: 0, valid: false };
      return { riddle: null, raw: response.text, notes: `not a riddle: ${problem}`.slice(0, 300), step: response.step };
    }
    return { riddle: value, raw: response.text, notes: "", step: response.step };
  }

  async checkValidity(context: EpisodeContext, riddle: Riddle): Promise<RiddleValidity> {
    const messages: Messages = [
      { role: "system", content: CRITIC_VALIDITY },
      ...this.examples("validity"),
      { role: "user", content: JSON.stringify({ riddle: riddle.riddle, solution: riddle.solution, rationale: riddle.solutionRationale, gradingRules: riddle.gradingRules }) },
    ];
    try {
      return (await context.judgeObject(messages, RiddleValiditySchema, { maxAttempts: this.settings.criticAttempts, sampler: { maxTokens: this.settings.validityMaxTokens } })).value;
    } catch (error) {
      if (!(error instanceof StructuredOutputError)) throw error;
      // A critic that cannot say "valid" has not validated it: rejected, and the notes say why.
      return { valid: false, notes: `critic output did not validate: ${error.message}`.slice(0, 300) };
    }
  }

  async solve(context: EpisodeContext, request: SolveRequest): Promise<{ answer: SolverAnswer | null; raw: string }> {
    const lines = [
      `Instructions: ${request.profile.instruction}`,
      request.actorMemory && `What worked before:\n${request.actorMemory}`,
      `Riddle: ${request.riddle}`,
      request.partnerSummary && `A partner's hint: ${request.partnerSummary}`,
    ];
    try {
      const { value, response } = await context.callModelForObject(
        RIDDLE_ROLE_IDS.solver,
        [...this.examples("solver"), { role: "user", content: lines.filter(Boolean).join("\n") }],
        SolverAnswerSchema,
        { maxAttempts: this.settings.solverAttempts, sampler: { temperature: request.profile.temperature } },
      );
      return { answer: value, raw: response.text };
    } catch (error) {
      if (!(error instanceof StructuredOutputError)) throw error;
      return { answer: null, raw: error.lastOutput };
    }
  }

  async consultPartner(context: EpisodeContext, riddle: string, answer: SolverAnswer): Promise<string> {
    const response = await context.callModel(RIDDLE_ROLE_IDS.partner, [
      {
        role: "user",
        content: `Riddle: ${riddle}\nThe solver tried: ${answer.helpRequest.whatITried}\nStuck at: ${answer.helpRequest.whereIAmStuck}`,
      },
    ]);
    return response.text.trim().replace(/\s+/g, " ").slice(0, MAX_PARTNER_SUMMARY);
  }

  async grade(context: EpisodeContext, riddle: Riddle, answer: SolverAnswer | null): Promise<AnswerGrade> {
    if (!answer) return { correct: false, notes: "the solver's output did not parse" };
    const messages: Messages = [
      { role: "system", content: CRITIC_GRADE },
      ...this.examples("grade"),
      { role: "user", content: JSON.stringify({ riddle: riddle.riddle, solution: riddle.solution, gradingRules: riddle.gradingRules, answer: answer.finalAnswer }) },
    ];
    try {
      return (await context.judgeObject(messages, AnswerGradeSchema, { maxAttempts: this.settings.criticAttempts, sampler: { maxTokens: this.settings.gradeMaxTokens } })).value;
    } catch (error) {
      if (!(error instanceof StructuredOutputError)) throw error;
      return { correct: false, notes: `critic output did not validate: ${error.message}`.slice(0, 200) };
    }
  }
}
