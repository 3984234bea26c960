import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";
import type { CriticReport } from "./critic-report.js";

/** summary.md: one episode for a person to read (answers and notes only, no chain of thought). */
export function formatEpisodeSummary(outcome: RiddleEpisodeOutcome, report: CriticReport): string {
  const lines = [`# Episode ${outcome.episodeIndex} (${outcome.domain})`, ""];
  const invalid = outcome.attempts.filter((attempt) => !attempt.valid).length;
  if (outcome.riddle === null) {
    lines.push(`No valid riddle: the critic rejected all ${outcome.attempts.length} attempt(s); the episode is a no-op with reward 0.`, "");
  } else {
    const riddle = outcome.riddle;
    lines.push(
      `**Riddle:** ${riddle.riddle}`,
      "",
      `**Solution:** ${riddle.solution}`,
      "",
      ...(riddle.solutionRationale === "" ? [] : [`**Rationale:** ${riddle.solutionRationale}`, ""]),
      `**Grading rules:** ${riddle.gradingRules}`,
      "",
      `Tags: ${riddle.tags.join(", ") || "-"}; guessed solve rate ${riddle.difficultyGuessPct}%; rejected attempts before it: ${invalid}.`,
      "",
      `Solved ${outcome.solved}/${outcome.solverRuns.length} (${outcome.solveRate === null ? "-" : `${Math.round(outcome.solveRate * 100)}%`}), ` +
        `band ${report.band.low}–${report.band.high}: ${report.band.inBand ? "in" : "out"}; riddler reward ${outcome.riddlerReward.toFixed(3)}.`,
      "",
      outcome.earlyStop.stopped
        ? `Early stop after ${outcome.earlyStop.afterSolvers} solver(s), clearly ${outcome.earlyStop.side} the band: ${outcome.solverCallsSaved} solver call(s) saved.`
        : "No early stop.",
      "",
      `Near-duplicate: ${outcome.duplicate.nearDuplicate ? `yes (similarity ${outcome.duplicate.similarity.toFixed(2)} to ${JSON.stringify(outcome.duplicate.of)})` : `no (highest similarity ${outcome.duplicate.similarity.toFixed(2)})`}. Partners used: ${outcome.partnersUsed}.`,
      "",
      "| solver | profile | answer | correct | partner |",
      "| --- | --- | --- | --- | --- |",
      ...outcome.solverRuns.map((run) => `| ${run.solverId} | ${cell(run.profile)} | ${cell(run.answer?.finalAnswer ?? "(unparsed)")} | ${run.correct ? "yes" : "no"} | ${run.askedPartner ? cell(run.partnerSummary || "yes") : "-"} |`),
      "",
    );
  }
  if (outcome.statusSummaries.length > 0) lines.push("## Actor status", "", ...outcome.statusSummaries.map((summary) => `- ${summary}`), "");
  const tokens = Object.entries(outcome.tokensByRole).map(([role, count]) => `${role} ${count}`);
  lines.push(`Completion tokens by role: ${tokens.join(", ") || "-"}.`, "");
  return lines.join("\n");
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ");
}
