// The `selfplay/riddles` entry. The riddle curriculum, and the riddles task's episodes and arithmetic domain.
export {
  RiddleSchema, SolverAnswerSchema, RiddleValiditySchema, AnswerGradeSchema, type Riddle, type SolverAnswer,
  type RiddleValidity, type AnswerGrade, RiddleConfigSchema, parseRiddleConfig, type RiddleConfig,
  type RiddleConfigInput, RiddleArtifactSchema, type RiddleArtifact, RiddleEpisodeOutcomeSchema, SolverRunSchema,
  type RiddleEpisodeOutcome, type SolverRun, type RiddleEpisodeHooks, type RiddleProgress, type RiddleDomain,
  FreeFormDomain, type FreeFormDomainOptions, runRiddleCurriculum, type RiddleCurriculumOptions,
  type RiddleCurriculumResult, type RiddleEpisodesFactory
} from "../riddles/index.js";
export {
  ArithmeticDomain, type ArithmeticDomainOptions, createRiddleEpisodes, riddleEpisodeModule,
  type RiddleEpisodesOptions
} from "../tasks/index.js";
