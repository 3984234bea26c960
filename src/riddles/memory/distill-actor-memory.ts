import type { ActorMemoryEntry, ProfileResult } from "./actor-memory-entry.js";
import { clip, percent } from "./riddler-memory-entry.js";

/** Profiles listed in the distilled section. */
const PROFILES_SHOWN = 10;

/**
 * The actor's distilled section: deterministic counts over every entry so far
 * — the overall solve rate, instruction profiles ranked by success (rate,
 * then runs, then name), and whether partners helped.
 */
export function distillActorMemory(entries: readonly ActorMemoryEntry[]): string[] {
  const runs = sum(entries.map((entry) => entry.solverRuns));
  const solved = sum(entries.map((entry) => entry.solved));
  const lines = [`episodes ${entries.length}: solver runs ${runs}, solved ${solved} (${percent(runs === 0 ? null : solved / runs)})`];
  const totals = new Map<string, ProfileResult>();
  for (const entry of entries) {
    for (const result of entry.profiles) {
      const total = totals.get(result.profile) ?? { profile: result.profile, runs: 0, solved: 0, partnerRuns: 0, partnerSolved: 0 };
      total.runs += result.runs;
      total.solved += result.solved;
      total.partnerRuns += result.partnerRuns;
      total.partnerSolved += result.partnerSolved;
      totals.set(result.profile, total);
    }
  }
  const ranked = [...totals.values()].sort(
    (a, b) => b.solved / b.runs - a.solved / a.runs || b.runs - a.runs || (a.profile < b.profile ? -1 : a.profile > b.profile ? 1 : 0),
  );
  ranked.slice(0, PROFILES_SHOWN).forEach((result, rank) => {
    lines.push(`#${rank + 1} profile ${JSON.stringify(clip(result.profile, 48))}: solved ${result.solved}/${result.runs} (${percent(result.solved / result.runs)})`);
  });
  const partnerRuns = sum(ranked.map((result) => result.partnerRuns));
  const partnerSolved = sum(ranked.map((result) => result.partnerSolved));
  if (runs > 0) {
    lines.push(
      `partners: ${sum(entries.map((entry) => entry.partnersUsed))} used; solved with a partner ${partnerSolved}/${partnerRuns} (${percent(partnerRuns === 0 ? null : partnerSolved / partnerRuns)}), ` +
        `without ${solved - partnerSolved}/${runs - partnerRuns} (${percent(runs === partnerRuns ? null : (solved - partnerSolved) / (runs - partnerRuns))})`,
    );
  }
  return lines;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
