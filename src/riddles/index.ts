// The riddle curriculum: riddler, actor with N solvers and partners, critic, Gaussian reward, memories
// (the `selfplay/riddles` entry).
export { RiddleSchema, SolverAnswerSchema, RiddleValiditySchema, AnswerGradeSchema, type Riddle, type SolverAnswer, type RiddleValidity, type AnswerGrade } from "./riddle-contracts.js";
export { RiddleConfigSchema, parseRiddleConfig, type RiddleConfig, type RiddleConfigInput } from "./riddle-config.js";
export { RiddleArtifactSchema, type RiddleArtifact } from "./riddle-artifact.js";
export { RiddleEpisodeOutcomeSchema, SolverRunSchema, type RiddleEpisodeOutcome, type SolverRun } from "./riddle-outcome.js";
export type { RiddleEpisodeHooks, RiddleProgress } from "./riddle-episode-hooks.js";
export type { RiddleDomain } from "./domains/riddle-domain.js";
export { FreeFormDomain, type FreeFormDomainOptions } from "./domains/free-form-domain.js";
export { runRiddleCurriculum, type RiddleCurriculumOptions, type RiddleCurriculumResult, type RiddleEpisodesFactory } from "./curriculum/run-riddle-curriculum.js";
