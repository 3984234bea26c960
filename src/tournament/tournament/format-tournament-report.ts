import { CAPTURE_OBJECTIVES } from "../detectors/capture-objectives.js";
import type { TournamentReport } from "./tournament-report.js";

/** A Markdown table: a header row, its rule, then the rows; pipes in cells escaped. */
function table(header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): string[] {
  const cell = (value: string | number) => String(value).replace(/\|/g, "\\|");
  return [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`, ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)];
}

/** A permille as a percentage with one decimal, in integer arithmetic (123 → "12.3%"). */
function percent(permille: number): string {
  return `${Math.floor(permille / 10)}.${permille % 10}%`;
}

/**
 * The report as Markdown: the ranking (worst-off first), per-episode
 * metrics, findings by objective and refusals by article. Derived from the
 * JSON report alone, so it carries no wall-clock time either.
 */
export function formatTournamentReport(report: TournamentReport): string {
  const lines = [
    `# Tournament under kernel ${report.kernel.version}`,
    "",
    `Seed ${report.seed}; ${report.episodes} episode(s) of up to ${report.rounds} round(s); ${report.world.numCitizens} citizens in ${report.world.factions} faction(s), treasury ${report.world.initialTreasury}. Kernel text SHA-256 \`${report.kernel.textSha256}\`.`,
    "",
    "## Ranking (worst-off first)",
    "",
    "Episodes are ranked by the worst-off honest citizen's welfare (balance + pro-rata claim on the treasury); ties are broken by treasury integrity, then participation, then legitimacy, then episode index.",
    "",
    ...table(
      ["rank", "episode", "red objective", "worst-off welfare", "worst-off citizen", "treasury integrity", "participation", "legitimacy"],
      report.ranking.map((entry) => [entry.rank, entry.episode, entry.objective ?? "none", entry.worstOffHonestWelfare, entry.worstOffHonestCitizen, percent(entry.treasuryIntegrityPermille), percent(entry.participationPermille), percent(entry.legitimacyPermille)]),
    ),
    "",
    "## Episodes",
    "",
    ...table(
      ["episode", "world seed", "red team", "objective", "policy", "rounds", "actions", "refused", "exits", "findings", "event-log hash"],
      report.episodeResults.map((entry) => [
        entry.episode,
        entry.world.seed,
        entry.roster.redTeam.join(", ") || "none",
        entry.roster.objective ?? "none",
        entry.roster.policy ?? "-",
        entry.roundsPlayed,
        entry.actions,
        entry.metrics.rejectedActions,
        entry.metrics.exits,
        entry.findings.map((finding) => finding.objective).join(", ") || "none",
        `\`${entry.eventLogHash.slice(0, 16)}\``,
      ]),
    ),
    "",
    "## Findings by objective",
    "",
  ];
  for (const objective of CAPTURE_OBJECTIVES) {
    const findings = report.findingsByObjective[objective];
    const pursuedIn = report.episodeResults.filter((entry) => entry.roster.objective === objective).length;
    lines.push(`### ${objective}`, "", `Pursued in ${pursuedIn} episode(s); found in ${findings.length}.`, "");
    if (findings.length > 0) {
      lines.push(...table(["episode", "round", "pursued", "evidence"], findings.map((finding) => [finding.episode, finding.round, finding.pursued ? "yes" : "no", finding.evidence])), "");
    }
  }
  lines.push("## Refused actions by article", "");
  const articles = Object.entries(report.rejectedByArticle);
  if (articles.length === 0) lines.push("The legality gate refused nothing.", "");
  else lines.push(...table(["article", "refused"], articles), "");
  return lines.join("\n");
}
