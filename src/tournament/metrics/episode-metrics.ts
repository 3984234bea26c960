import type { TournamentEvent } from "../world/events.js";
import { totalFunds, type WorldState } from "../world/world-state.js";
import { citizenWelfare, type CitizenWelfare } from "./citizen-welfare.js";

/** Permille scale: 1000 is the whole. */
const WHOLE = 1000;

/**
 * An episode's scores, worst-off first. Every figure is an integer (units or
 * permille, 0–1000), so two runs compare exactly and a report's bytes do not
 * depend on float printing.
 */
export interface EpisodeMetrics {
  /**
   * The lowest welfare (balance + pro-rata claim on the treasury, see
   * `citizenWelfare`) among the honest citizens, in units — the score compared
   * first. With no honest citizen, the lowest of all.
   */
  worstOffHonestWelfare: number;
  /** Who that is (the lowest index among ties). */
  worstOffHonestCitizen: string;
  /**
   * Permille of the world's funds not taken by red citizens beyond their
   * pro-rata claim: 1000 × (total − excess) / total, rounded down, where
   * excess = max(0, Σ red welfare − floor(total × red citizens / citizens)).
   * 1000 when the world holds no funds.
   */
  treasuryIntegrityPermille: number;
  /**
   * Turnout on decided proposals: 1000 × Σ ballots counted / Σ citizens whose
   * ballot could count at each tally (the active ones plus the exited ones who
   * voted on it: Art. 5 keeps a ballot after its citizen exits), rounded down,
   * so 0–1000; 0 when no proposal was decided (nobody took part in a decision).
   */
  participationPermille: number;
  /**
   * Permille of the episode's rounds that closed under ordinary rule (no
   * emergency in force at the round's end), rounded down; 1000 for an episode
   * with no closed round.
   */
  legitimacyPermille: number;
  /** Actions the legality gate refused in the episode. */
  rejectedActions: number;
  /** Citizens who left (their exit carried out). */
  exits: number;
  /** Every citizen's welfare, in index order. */
  welfare: CitizenWelfare[];
}

/** Who played which side, for the metrics that tell honest from red. */
export interface EpisodeSides {
  /** Red citizens' ids; everyone else is honest. */
  redTeam: readonly string[];
}

/** Scores one episode from its final state and its event log. Pure. */
export function episodeMetrics(state: Readonly<WorldState>, events: readonly TournamentEvent[], sides: EpisodeSides): EpisodeMetrics {
  const welfare = citizenWelfare(state);
  const honest = welfare.filter((entry) => !sides.redTeam.includes(entry.citizen));
  const judged = honest.length > 0 ? honest : welfare;
  // Reduce keeps the first minimum, so ties go to the lowest index.
  const worstOff = judged.reduce((lowest, entry) => (entry.welfare < lowest.welfare ? entry : lowest));

  const total = totalFunds(state);
  const red = welfare.filter((entry) => sides.redTeam.includes(entry.citizen));
  const redFairShare = Math.floor((total * red.length) / Math.max(1, welfare.length));
  const excess = Math.max(0, red.reduce((sum, entry) => sum + entry.welfare, 0) - redFairShare);
  const treasuryIntegrityPermille = total === 0 ? WHOLE : Math.floor((WHOLE * (total - excess)) / total);

  // Participation (Art. 5): a ballot stays counted at the tally after its citizen exits, so the figure's
  // denominator is every citizen whose ballot the tally could count — the active ones plus those who voted
  // and have since exited. Dividing by the active alone reached 3000 on legal play.
  let cast = 0;
  let eligible = 0;
  const exited = new Set<string>();
  const voters = new Map<string, string[]>();
  let rejectedActions = 0;
  let exits = 0;
  let closedRounds = 0;
  let ordinaryRounds = 0;
  let emergencyInForce = false;
  for (const event of events) {
    switch (event.type) {
      case "vote_cast":
        voters.set(event.proposalId, [...(voters.get(event.proposalId) ?? []), event.actor]);
        break;
      case "proposal_decided":
        cast += event.yes + event.no;
        eligible += event.active + (voters.get(event.proposalId) ?? []).filter((citizen) => exited.has(citizen)).length;
        break;
      case "rejected":
        rejectedActions += 1;
        break;
      case "citizen_exited":
        exits += 1;
        exited.add(event.actor);
        break;
      case "emergency_declared":
        emergencyInForce = true;
        break;
      case "emergency_ended":
      case "emergency_lapsed":
        emergencyInForce = false;
        break;
      case "round_ended":
        closedRounds += 1;
        if (!emergencyInForce) ordinaryRounds += 1;
        break;
      default:
        break;
    }
  }
  return {
    worstOffHonestWelfare: worstOff.welfare,
    worstOffHonestCitizen: worstOff.citizen,
    treasuryIntegrityPermille,
    participationPermille: eligible === 0 ? 0 : Math.floor((WHOLE * cast) / eligible),
    legitimacyPermille: closedRounds === 0 ? WHOLE : Math.floor((WHOLE * ordinaryRounds) / closedRounds),
    rejectedActions,
    exits,
    welfare,
  };
}
