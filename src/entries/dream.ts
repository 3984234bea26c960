// The `selfplay/dream` entry. The dream cycle: sandboxed JavaScript challenges, quality gates, lessons and the playbook.
export {
  runInSandbox, SandboxOptionsSchema, type SandboxOptions, SandboxResultSchema, type SandboxResult,
  type SandboxReason, type SandboxIsolation, ChallengeSchema, type Challenge, runChallengeAttempt,
  type ChallengeAttemptResult, createChallengeSandbox, type ChallengeSandboxOptions, CHALLENGE_TEMPLATES,
  type ChallengeTemplate, screenChallenge, type ChallengeScreening, LessonSchema, type Lesson, extractLesson,
  type LessonJudge, checkGeneralization, type GeneralizationVerdict, verifyLessonHelpful, type HelpfulRerun,
  Playbook, type PlaybookOptions, ReadonlyPlaybook, learnLesson, type LearnLessonOptions, type LearnLessonResult,
  FailedRunJournal, ReadonlyFailedRunJournal, mineJournal, DREAM_SOLVER_ROLE, clientDreamSolver, type DreamSolver,
  DreamWorkspace, type DreamWorkspaceOptions, runDreamCycle, type DreamCycleOptions, type DreamCycleRecord,
  type DreamCycleStatus, runDreamLoop, type DreamLoopOptions, type DreamLoopResult, SandboxOptionsError,
  SandboxUnavailableError, FixtureSnapshotTooLargeError, ReadOnlyJournalError, LessonNotAdmittedError,
  ReadOnlyPlaybookError, UnknownLessonError
} from "../dream/index.js";
