import { mkdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { writeExploitCandidate } from "../../tournament/exploits/write-exploit-candidate.js";
import { loadKernel } from "../../tournament/kernel/load-kernel.js";
import { formatTournamentReport } from "../../tournament/tournament/format-tournament-report.js";
import { runTournament } from "../../tournament/tournament/run-tournament.js";
import type { TournamentEpisodeResult } from "../../tournament/tournament/tournament-episode-result.js";
import { tournamentExploitCandidates } from "../../tournament/tournament/tournament-exploit-candidates.js";
import type { TournamentReport } from "../../tournament/tournament/tournament-report.js";
import { defaultRoster, RED_POLICIES } from "../../tournament/tournament/tournament-roster.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";

export const TournamentCommandOptionsSchema = z.object({
  /** Constitution YAML the tournament is played under. */
  kernel: z.string({ error: "a constitution YAML file, e.g. constitutions/constitution-0.1.0.yaml" }).min(1, "a constitution YAML file"),
  /** Tournament seed: every episode's world and every agent's stream derive from it. */
  seed: integerFlag(0, 2 ** 32 - 1),
  /** Episodes; the default roster rotates the four red objectives over them. */
  episodes: integerFlag(1, 10_000),
  /** Rounds per episode. */
  rounds: integerFlag(1, 1000),
  /** Output folder; default `runs/tournament-<timestamp>`. */
  out: z.string().min(1, "a folder path").optional(),
  /** How the red team plays: `scripted` (each objective's policy) or `search` (a beam search over legal moves, stopping at its first finding). */
  redPolicy: z.enum(RED_POLICIES, { error: `one of: ${RED_POLICIES.join(", ")}` }).default("scripted"),
  json: z.boolean().default(false),
});
export type TournamentCommandOptions = z.infer<typeof TournamentCommandOptionsSchema>;

/** Every episode's events, one JSON object a line, each tagged with its episode. */
function eventsJsonl(episodes: readonly TournamentEpisodeResult[]): string {
  return episodes.map((episode) => episode.events.map((event) => `${JSON.stringify({ episode: episode.index, ...event })}\n`).join("")).join("");
}

/** `selfplay tournament`: plays the episodes and writes report.json, report.md, events.jsonl and any exploit candidates. */
export async function tournamentCommand(rawOptions: unknown, { io, now }: CommandContext): Promise<number> {
  const options = parseOptions(TournamentCommandOptionsSchema, rawOptions);
  // Read the kernel before anything is written: a bad file leaves no folder behind.
  const kernel = await loadKernel(options.kernel);
  // The clock names the folder only; nothing it reads goes into the report.
  const out = options.out ?? join("runs", `tournament-${now().toISOString().replace(/[:.]/g, "-")}`);
  if (await stat(join(out, "report.json")).then(() => true, () => false)) {
    throw new InvalidInputError("--out", "a folder without a tournament report in it (choose another --out)", out);
  }
  const { report, episodes } = await runTournament({ kernel, seed: options.seed, episodes: options.episodes, rounds: options.rounds, roster: defaultRoster({ policy: options.redPolicy }) });
  await mkdir(out, { recursive: true });
  await writeFileAtomic(join(out, "events.jsonl"), eventsJsonl(episodes));
  await writeFileAtomic(join(out, "report.md"), formatTournamentReport(report));
  const candidates: string[] = [];
  for (const { fileName, candidate } of tournamentExploitCandidates(options.seed, episodes)) {
    const path = join(out, "exploit-candidates", fileName);
    await mkdir(dirname(path), { recursive: true });
    await writeExploitCandidate(path, candidate);
    candidates.push(path);
  }
  // report.json last: its presence says the folder is complete.
  await writeFileAtomic(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  io.stdout(options.json ? `${JSON.stringify(report)}\n` : summary(report, out, candidates));
  return EXIT.ok;
}

function summary(report: TournamentReport, out: string, candidates: readonly string[]): string {
  const best = report.ranking[0];
  const findings = Object.entries(report.findingsByObjective).map(([objective, found]) => `${objective} ${found.length}`);
  return [
    `tournament under kernel ${report.kernel.version}, seed ${report.seed}: ${report.episodes} episode(s) of up to ${report.rounds} round(s)`,
    ...(best === undefined ? [] : [`ranking, worst-off first: episodes ${report.ranking.map((entry) => entry.episode).join(", ")} (best: worst-off honest welfare ${best.worstOffHonestWelfare})`]),
    `findings: ${findings.join(", ")}`,
    `refused actions: ${Object.values(report.rejectedByArticle).reduce((sum, count) => sum + count, 0)}`,
    ...(candidates.length === 0 ? [] : [`exploit candidates (shrink and record them with \`selfplay exploits add FILE…\`):`, ...candidates.map((path) => `  ${path}`)]),
    `wrote ${join(out, "report.json")}, report.md, events.jsonl`,
    "",
  ].join("\n");
}

export function registerTournamentCommand(program: Command, context: CommandContext): void {
  program
    .command("tournament")
    .description("Play seeded episodes of honest and red-team citizens under a constitution; write a worst-off-first report, the events and any exploit candidates.")
    .addOption(new Option("--kernel <file>", "constitution YAML, e.g. constitutions/constitution-0.1.0.yaml (required)"))
    .addOption(new Option("--seed <n>", "tournament seed, an integer from 0 to 4294967295 (required)"))
    .addOption(new Option("--episodes <n>", "episodes, an integer from 1 to 10000; red objectives rotate over them").default("4"))
    .addOption(new Option("--rounds <n>", "rounds per episode, an integer from 1 to 1000").default("12"))
    .addOption(new Option("--red-policy <policy>", `how red citizens play: ${RED_POLICIES.join(" or ")}`).default("scripted"))
    .addOption(new Option("--out <dir>", "output folder (default runs/tournament-<timestamp>)"))
    .addOption(new Option("--json", "print the report as one JSON object"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await tournamentCommand(flags, context));
    });
}
