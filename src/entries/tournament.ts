// The `selfplay/tournament` entry. Tournaments: constitution kernels, the legality gate, agents, detectors, replay, exploits.
export {
  Kernel, loadKernel, parseKernel, KernelParamsSchema, KernelDocumentSchema, type KernelParams, type KernelDocument,
  type Article, LEGALITY_RULES, type LegalityRule, ActionSchema, ACTION_TYPES, parseAction, type Action,
  type ActionType, type WorldState, type CitizenState, type Proposal, type Ballot, type Emergency,
  type TournamentEvent, type TournamentEventType, TournamentWorld, WorldConfigSchema, type WorldConfig,
  type WorldConfigInput, type StepResult, checkLegality, type LegalityResult, playRounds, type PlayRoundsOptions,
  type TournamentAgent, type AgentView, agentStream, HonestAgent, type HonestAgentOptions, createRedTeamAgent,
  searchRedTeam, type SearchRedTeamOptions, type SearchRedTeamResult, planSearchRedTeam, type SearchRedTeamPlan,
  CAPTURE_OBJECTIVES, type CaptureObjective, detectCaptures, captureProgress, type CaptureFinding,
  type CaptureProgress, type DetectionContext, episodeMetrics, type EpisodeMetrics, type EpisodeSides,
  compareEpisodeMetrics, METRIC_ORDER, runTournament, type RunTournamentOptions, type TournamentResult,
  defaultRoster, RED_POLICIES, type RedPolicy, type EpisodeRoster, type TournamentRoster, type DefaultRosterOptions,
  eventLogHash, parseTranscript, type Transcript, replayTranscript, type ReplayOptions, type ReplayResult,
  shrinkTranscript, type ShrinkResult, ExploitRecordSchema, parseExploitRecord, type ExploitRecord,
  ExploitCandidateSchema, parseExploitCandidate, type ExploitCandidate, writeExploitCandidate, recordExploit,
  type RecordExploitOptions, type RecordExploitResult, verifyExploits, type ExploitVerification, KernelFileError,
  UnknownActionError, KernelVersionMismatchError, ExploitRecordError
} from "../tournament/index.js";
