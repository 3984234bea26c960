import { Option, type Command } from "commander";
import { z } from "zod";
import { detectCaptures, type CaptureFinding } from "../../tournament/detectors/detect-captures.js";
import { exploitOutcome } from "../../tournament/exploits/exploit-outcome.js";
import { readJsonFile } from "../../tournament/exploits/load-exploit-record.js";
import { parseReplayable } from "../../tournament/exploits/parse-replayable.js";
import { loadKernel } from "../../tournament/kernel/load-kernel.js";
import { replayTranscript } from "../../tournament/replay/replay-transcript.js";
import { CitizenIdSchema } from "../../tournament/world/actions.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { parseOptions } from "../parse-options.js";

export const ReplayCommandOptionsSchema = z.object({
  kernel: z.string({ error: "a constitution YAML file" }).min(1, "a constitution YAML file"),
  acrossVersions: z.boolean().default(false),
  /** For a bare transcript: whom the detectors judge (a record or candidate names its own red team). */
  redTeam: z
    .string()
    .transform((text) => text.split(",").map((citizen) => citizen.trim()).filter((citizen) => citizen !== ""))
    .pipe(z.array(CitizenIdSchema))
    .optional(),
  json: z.boolean().default(false),
});

/** What a replay printed, as `--json` gives it. */
export interface ReplayReport {
  file: string;
  kind: "transcript" | "candidate" | "record";
  transcriptKernelVersion: string;
  kernelVersion: string;
  kernelTextSha256: string;
  actions: number;
  rejected: number;
  /** Rounds completed. */
  rounds: number;
  eventLogHash: string;
  finalTreasury: number;
  redTeam: string[];
  findings: CaptureFinding[];
  /** For a record or candidate: its objective, open or closed here, and (a record) what it expects and whether the hash matches. */
  claim: { objective: string; status: "open" | "closed"; expected: "open" | "closed" | null; eventLogHashMatches: boolean | null } | null;
}

/**
 * `selfplay replay FILE --kernel FILE`: feeds a transcript, exploit candidate
 * or exploit record through the legality gate under a kernel and prints the
 * outcome. Exit 1 when a record's recorded expectation or event-log hash does
 * not hold under this kernel; 2 for a bad file, kernel or version mismatch.
 */
export async function replayCommand(file: string, rawOptions: unknown, io: CliIo): Promise<number> {
  const options = parseOptions(ReplayCommandOptionsSchema, rawOptions);
  const replayable = parseReplayable(await readJsonFile(file), file);
  const kernel = await loadKernel(options.kernel);
  const { transcript } = replayable;
  const replay = replayTranscript(transcript, kernel, { acrossVersions: options.acrossVersions });
  const redTeam = replayable.kind === "transcript" ? (options.redTeam ?? []) : [...replayable.claim.redTeam];
  const findings = detectCaptures(replay.events, { kernel, world: transcript.world, redTeam });
  let claim: ReplayReport["claim"] = null;
  if (replayable.kind !== "transcript") {
    const { status } = exploitOutcome(transcript, kernel, replayable.claim, { acrossVersions: true });
    const record = replayable.kind === "record" ? replayable.record : null;
    claim = {
      objective: replayable.claim.objective,
      status,
      expected: record?.expectations[kernel.version] ?? null,
      eventLogHashMatches: record !== null && record.kernelVersion === kernel.version ? record.eventLogHash === replay.eventLogHash : null,
    };
  }
  const report: ReplayReport = {
    file,
    kind: replayable.kind,
    transcriptKernelVersion: transcript.kernelVersion,
    kernelVersion: kernel.version,
    kernelTextSha256: kernel.textSha256,
    actions: transcript.actions.length,
    rejected: replay.rejected,
    rounds: replay.state.round,
    eventLogHash: replay.eventLogHash,
    finalTreasury: replay.state.treasury,
    redTeam,
    findings,
    claim,
  };
  io.stdout(options.json ? `${JSON.stringify(report)}\n` : formatReplay(report));
  const holds = claim === null || ((claim.expected === null || claim.expected === claim.status) && claim.eventLogHashMatches !== false);
  return holds ? EXIT.ok : EXIT.failure;
}

function formatReplay(report: ReplayReport): string {
  const lines = [
    `replay ${report.file} (${report.kind}, recorded under ${report.transcriptKernelVersion}) under kernel ${report.kernelVersion} (sha256 ${report.kernelTextSha256.slice(0, 12)}…)`,
    `  ${report.actions} actions, ${report.rejected} rejected, ${report.rounds} rounds completed`,
    `  event-log hash ${report.eventLogHash}`,
    `  final treasury ${report.finalTreasury}`,
    report.findings.length === 0
      ? `  detector findings: none${report.redTeam.length === 0 ? " (no red team: pass --red-team for a bare transcript)" : ` (red team ${report.redTeam.join(", ")})`}`
      : `  detector findings (red team ${report.redTeam.join(", ") || "none"}):\n${report.findings.map((finding) => `    ${finding.objective}, round ${finding.round}: ${finding.evidence}`).join("\n")}`,
  ];
  if (report.claim !== null) {
    const { objective, status, expected, eventLogHashMatches } = report.claim;
    lines.push(
      `  ${objective}: ${status} under ${report.kernelVersion}` +
        (expected === null ? "" : expected === status ? ` (as recorded)` : ` — the record expects ${expected}`) +
        (eventLogHashMatches === null ? "" : eventLogHashMatches ? "; event-log hash matches the record" : "; event-log hash does NOT match the record"),
    );
  }
  return `${lines.join("\n")}\n`;
}

export function registerReplayCommand(program: Command, { io, setExitCode }: CommandContext): void {
  program
    .command("replay")
    .description("Replay a tournament transcript, exploit candidate or exploit record through the legality gate under a kernel, and print rejections, detector findings, the event-log hash and the final treasury.")
    .argument("<file>", "a transcript JSON ({kernelVersion, world, actions}), an exploit candidate, or an exploit record (constitution-exploits/<id>.json)")
    .addOption(new Option("--kernel <file>", "constitution YAML to replay under (required)").makeOptionMandatory())
    .addOption(new Option("--across-versions", "replay under a kernel of another version than the transcript's (an amendment's effect); refused otherwise"))
    .addOption(new Option("--red-team <citizens>", "comma-separated citizen ids the detectors judge, for a bare transcript (a record or candidate names its own)"))
    .addOption(new Option("--json", "print the outcome as one JSON object"))
    .action(async (file: string, flags: Record<string, unknown>) => setExitCode(await replayCommand(file, flags, io)));
}
