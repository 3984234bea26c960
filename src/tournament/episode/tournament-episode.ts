import { z } from "zod";
import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import { Episode } from "../../core/episodes/episode.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { agentStream } from "../agents/agent-stream.js";
import { HonestAgent } from "../agents/honest-agent.js";
import { createRedTeamAgent } from "../agents/red-team/create-red-team-agent.js";
import { LlmCitizenAgent, LlmPromptFormSchema } from "../agents/llm/llm-citizen-agent.js";
import type { TournamentAgent } from "../agents/tournament-agent.js";
import { CAPTURE_OBJECTIVES } from "../detectors/capture-objectives.js";
import { detectCaptures } from "../detectors/detect-captures.js";
import type { Kernel } from "../kernel/kernel.js";
import { playRounds } from "../play/play-rounds.js";
import { eventLogHash } from "../replay/canonical-json.js";
import { CitizenIdSchema } from "../world/actions.js";
import { TournamentWorld } from "../world/tournament-world.js";
import { captureScore, worstOffShare } from "./citizen-outcome.js";
import { citizenSeatIssues } from "./citizen-seat-issues.js";
import { TournamentRoleSchema, roleGoal, type TournamentRole } from "./tournament-role.js";
import { TournamentVerifier } from "./tournament-verifier.js";

export const TournamentEpisodeOptionsSchema = z.strictObject({
  /** Rounds each episode plays. Default 2. */
  rounds: z.int().min(1).max(50).default(2),
  /** Citizens in the world (`c0 …`). Default 5. */
  citizens: z.int().min(2).max(100).default(5),
  /** Factions (citizen i in `f(i mod factions)`). Default 2. */
  factions: z.int().min(1).max(100).default(2),
  /** Whole units in the treasury at the start. Default 1000. */
  initialTreasury: z.int().min(0).max(1e12).default(1000),
  /** The citizens the policy plays, each its own Role (the role id is the citizen id); the others are scripted honest agents. Default `["c0"]`. */
  llmCitizens: z.array(CitizenIdSchema).min(1).default(["c0"]),
  /** What the LLM citizens play for: `honest` (worst-off first) or `red:<objective>` (a capture objective, the LLM citizens the red team). Default `honest`. */
  role: TournamentRoleSchema.prefault("honest"),
  /**
   * Citizens played by a model through the same strict-JSON path, each its
   * own Role like the LLM citizens, whom the environment binds to a frozen
   * policy (its `frozenRoles`: a frozen opponent, or a league's snapshots), so
   * they are never trained unless the run's opponents are `current`. Default none.
   */
  opponentCitizens: z.array(CitizenIdSchema).default([]),
  /** What the opponent citizens play for, as `role` (a red one is its own red team). Default `honest`. */
  opponentRole: TournamentRoleSchema.prefault("honest"),
  /** A scripted red team among the other citizens (createRedTeamAgent's policy for `objective`, each on its own seeded stream). Default none: every other citizen is honest. */
  scriptedRed: z.strictObject({ objective: z.enum(CAPTURE_OBJECTIVES), citizens: z.array(CitizenIdSchema).min(1) }).optional(),
  /** Tries per turn, as in playRounds; after this many refusals (or invalid outputs) the citizen passes. Default 2. */
  maxAttemptsPerTurn: z.int().min(1).max(10).default(2),
  /**
   * How each turn is put to the model: `compact`, the state lines as one user
   * message (the bundled base's: 256 positions, a token a byte), or `chat`, a
   * system message with the citizen's goal and the actions and the state in
   * words, for an instruction-tuned model (about 220 tokens on SmolLM2).
   * Default `compact`.
   */
  prompt: LlmPromptFormSchema.default("compact"),
  /** Tokens per action (an action is 40–100 bytes of compact JSON, a few optional spaces more: 112 tokens on the bundled base, a token a byte; about 20–35 on SmolLM2's vocabulary). Default 112. */
  maxTokens: z.int().min(8).default(112),
  /** Reward taken off per action of the citizen the gate refused. Default 0.1. */
  rejectionPenalty: z.number().min(0).default(0.1),
});
export type TournamentEpisodeOptions = z.input<typeof TournamentEpisodeOptionsSchema>;

const TournamentArtifactSchema = z.strictObject({
  /** The world's seed: the turn orders and every scripted citizen's stream (episode index 0). */
  seed: z.int().min(0).max(2 ** 31 - 1),
});
export type TournamentArtifact = z.infer<typeof TournamentArtifactSchema>;

/** A played tournament and the agents of the citizens a model plays (the LLM citizens and the opponent citizens). */
export interface TournamentEpisodeState {
  world: TournamentWorld;
  llmAgents: Readonly<Record<string, LlmCitizenAgent>>;
}

/**
 * A tournament as an Episode: one or more LLM citizens (Roles) play `rounds`
 * rounds beside scripted honest citizens (and a scripted red team, with
 * `scriptedRed`; opponent citizens, Roles too, with `opponentCitizens`),
 * every action through the legality
 * gate with playRounds' retries. A refused LLM action keeps its Step and is
 * counted. Each model-played citizen's reward is its side's outcome — the
 * worst-off share for an honest one, its team's capture score for a red one
 * (the LLM citizens one team, the opponent citizens another) — less
 * `rejectionPenalty` per refusal. The world and the scripted citizens depend
 * only on the artifact's seed, so a GRPO group (one seed) compares the
 * policy's play in the same world.
 */
export class TournamentEpisode extends Episode<TournamentArtifact, TournamentEpisodeState> {
  readonly type = "tournament";
  readonly roles: readonly Role[];
  readonly verifier: TournamentVerifier;
  protected readonly artifactSchema = TournamentArtifactSchema;
  private readonly options: z.output<typeof TournamentEpisodeOptionsSchema>;

  constructor(
    readonly kernel: Kernel,
    options: TournamentEpisodeOptions = {},
  ) {
    super();
    this.options = parseInput(TournamentEpisodeOptionsSchema, options, { fieldName: (path) => `tournament.${path.map(String).join(".")}` });
    const [issue] = citizenSeatIssues(this.options);
    if (issue) throw new InvalidInputError(issue.path.reduce<string>((field, part) => (typeof part === "number" ? `${field}[${part}]` : `${field}.${part}`), "tournament"), issue.message, issue.citizen);
    this.roles = [...this.options.llmCitizens, ...this.options.opponentCitizens].map((id) => RoleSchema.parse({ id, sampler: { maxTokens: this.options.maxTokens } }));
    this.verifier = new TournamentVerifier({ rejectionPenalty: this.options.rejectionPenalty });
  }

  async rollout(context: EpisodeContext, artifact: TournamentArtifact): Promise<TournamentEpisodeState> {
    const { rounds, citizens, factions, initialTreasury, maxAttemptsPerTurn, scriptedRed, prompt } = this.options;
    const world = new TournamentWorld(this.kernel, { numCitizens: citizens, factions, initialTreasury, seed: artifact.seed });
    const llmAgents: Record<string, LlmCitizenAgent> = {};
    const agents: Record<string, TournamentAgent> = {};
    for (const citizen of world.citizens()) {
      const side = this.sides().find((candidate) => candidate.citizens.includes(citizen));
      if (side) agents[citizen] = llmAgents[citizen] = new LlmCitizenAgent(context, { roleId: citizen, rounds, goal: roleGoal(side.role), prompt, team: side.citizens });
      else if (scriptedRed?.citizens.includes(citizen)) agents[citizen] = createRedTeamAgent(scriptedRed.objective, scriptedRed.citizens, agentStream(artifact.seed, 0, citizen));
      else agents[citizen] = new HonestAgent(agentStream(artifact.seed, 0, citizen));
    }
    await playRounds(world, agents, { untilRound: rounds, maxAttemptsPerTurn });
    return { world, llmAgents };
  }

  /** Per model-played citizen: its side's outcome, submissions, refusals and invalid outputs; and the world's summary (findings, event-log hash). */
  finalize(state: TournamentEpisodeState, artifact: TournamentArtifact): JsonObject {
    const { world, llmAgents } = state;
    const { role, scriptedRed } = this.options;
    const sides = this.sides();
    const context = (team: readonly string[]) => ({ kernel: this.kernel, world: world.config, redTeam: team });
    const citizens: JsonObject = {};
    for (const side of sides) {
      const outcome = side.role.kind === "honest" ? worstOffShare(world.state) : captureScore(side.role.objective, world.events, context(side.citizens));
      for (const citizen of side.citizens) {
        const agent = llmAgents[citizen] as LlmCitizenAgent;
        citizens[citizen] = {
          outcome,
          submitted: world.actions.filter((action) => action.actor === citizen).length,
          rejected: world.events.filter((event) => event.type === "rejected" && event.action?.actor === citizen).length,
          calls: agent.tally.calls,
          invalid: agent.tally.invalid,
        };
      }
    }
    return {
      seed: artifact.seed,
      kernelVersion: this.kernel.version,
      role: role.kind === "honest" ? "honest" : `red:${role.objective}`,
      roundsPlayed: world.turn,
      worstOffShare: worstOffShare(world.state),
      // Judged against every red citizen: the LLM's and the opponents' (each when red) and the scripted team's.
      findings: detectCaptures(world.events, context([...sides.flatMap((side) => (side.role.kind === "red" ? side.citizens : [])), ...(scriptedRed?.citizens ?? [])])).map((finding) => finding.objective),
      eventLogHash: eventLogHash(world.events),
      citizens,
    };
  }

  /** The model-played sides: the LLM citizens for `role`, and the opponent citizens (when any) for `opponentRole`. */
  private sides(): { citizens: readonly string[]; role: TournamentRole }[] {
    const { llmCitizens, role, opponentCitizens, opponentRole } = this.options;
    return [{ citizens: llmCitizens, role }, ...(opponentCitizens.length > 0 ? [{ citizens: opponentCitizens, role: opponentRole }] : [])];
  }
}
