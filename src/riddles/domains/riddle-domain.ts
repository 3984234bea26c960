import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import type { Role } from "../../core/schemas/role.js";
import type { Step } from "../../core/schemas/step.js";
import type { SolverProfile } from "../actor/solver-profiles.js";
import type { RiddleArtifact } from "../riddle-artifact.js";
import type { RiddleConfig } from "../riddle-config.js";
import type { AnswerGrade, Riddle, RiddleValidity, SolverAnswer } from "../riddle-contracts.js";

/** Role ids of the riddle episodes. */
export const RIDDLE_ROLE_IDS = { riddler: "riddler", solver: "solver", partner: "partner" } as const;

/** One riddle the riddler wrote: parsed (null when it is not a riddle of the domain), its text, and the Step that wrote it. */
export interface RiddleDraft {
  riddle: Riddle | null;
  raw: string;
  /** Why the draft did not parse ("" when it did). */
  notes: string;
  /** The riddler's Step for this draft (the episode moves a rejected draft's Step out of training). */
  step: Step;
}

/** What the riddler is asked with. */
export interface DraftRequest {
  artifact: RiddleArtifact;
  config: RiddleConfig;
  /** 0 for the first draft; later drafts follow a rejection. */
  attempt: number;
  /** The critic's notes on the previous draft ("" on the first). */
  previousNotes: string;
}

/** What one solver is asked with. */
export interface SolveRequest {
  riddle: string;
  profile: SolverProfile;
  /** A short excerpt of actor_memory.md. */
  actorMemory: string;
  /** A partner discussion's summary, after a help request ("" before). */
  partnerSummary: string;
}

/**
 * What differs between riddle domains: how the riddler writes (and the
 * grammar or schema it writes under), how validity and answers are checked
 * (by code or by an LLM critic), and how solvers and partners are asked. The
 * episode's flow (retries, waves, early stop, partners' caps, rewards) is the
 * same for every domain.
 */
export interface RiddleDomain {
  readonly name: RiddleConfig["domain"];
  /** The Roles' settings (system prompts, token budgets), by role id. */
  readonly roles: { readonly riddler: Role; readonly solver: Role; readonly partner: Role };
  /** Whether solvers can ask for help (the bundled arithmetic base cannot say so). */
  readonly helpRequests: boolean;
  draftRiddle(context: EpisodeContext, request: DraftRequest): Promise<RiddleDraft>;
  /** The critic's validity check (a judge call or code; never a Step). */
  checkValidity(context: EpisodeContext, riddle: Riddle): Promise<RiddleValidity>;
  /** One solver attempt as the solver Role; `answer` is null when the output did not parse. */
  solve(context: EpisodeContext, request: SolveRequest): Promise<{ answer: SolverAnswer | null; raw: string }>;
  /** A partner discussion as the partner Role; returns its short summary only. */
  consultPartner(context: EpisodeContext, riddle: string, answer: SolverAnswer): Promise<string>;
  /** The critic's grade of an answer against the solution and the riddle's grading rules. */
  grade(context: EpisodeContext, riddle: Riddle, answer: SolverAnswer | null): Promise<AnswerGrade>;
}
