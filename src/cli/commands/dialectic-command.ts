import { Option, type Command } from "commander";
import { z } from "zod";
import { Arena } from "../../arena/arena.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { CRITIC_FOCUSES, criticPanel } from "../../dialectic/critic-panel.js";
import { DialecticEpisode } from "../../dialectic/dialectic-episode.js";
import { DialecticOutcomeSchema, type DialecticOutcome } from "../../dialectic/dialectic-outcome.js";
import type { DialecticRound } from "../../dialectic/dialectic-round.js";
import { scriptedDialecticRules } from "../../dialectic/scripted-dialectic.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { ScriptedInferenceClient } from "../../inference/scripted-inference-client.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";

export const DialecticCommandOptionsSchema = z.object({
  task: z.string({ error: "the task to propose for, as text" }).trim().min(1, "the task to propose for, as text"),
  model: z.string().min(1, "a GGUF file path").optional(),
  critics: integerFlag(1, CRITIC_FOCUSES.length),
  maxRounds: integerFlag(1, 100),
  seed: integerFlag(0, MAX_SEED),
  json: z.boolean().default(false),
  ...DEVICE_FLAG,
});
export type DialecticCommandOptions = z.infer<typeof DialecticCommandOptionsSchema>;

/** What `--json` prints. */
export interface DialecticJsonReport {
  state: DialecticOutcome["state"];
  pattern: DialecticOutcome["pattern"];
  rounds: Array<{ round: number; score: number; approved: boolean; issues: string[]; strategy: DialecticRound["strategy"] }>;
  finalOutput: string;
  finalScore: number;
}

/** Tokens of context the engine gets for a dialectic: a critic's prompt plus its longest critique. */
const DIALECTIC_CONTEXT_SIZE = 4096;

/** `selfplay dialectic`: runs one proposer/critic loop and prints its round history and final state. */
export async function dialecticCommand(rawOptions: unknown, io: CliIo): Promise<number> {
  const options = parseOptions(DialecticCommandOptionsSchema, rawOptions);
  const critics = criticPanel(options.critics);
  const client =
    options.model === undefined
      ? new ScriptedInferenceClient({ rules: scriptedDialecticRules })
      : // Critic prompts carry the task, the proposal and the answer format, and a critique may take ~900 tokens.
        await LlamaInferenceClient.create({ modelPath: options.model, contextSize: DIALECTIC_CONTEXT_SIZE, device: options.device });
  announceDevice(io, client);
  try {
    const arena = new Arena({ client, seed: options.seed }).register(new DialecticEpisode({ maxRounds: options.maxRounds, critics }));
    const [result] = await arena.generateRollouts([{ episodeType: "dialectic", artifact: { task: options.task } }]);
    if (!result || result.outcome.status === "failed") {
      const failure = result?.outcome.status === "failed" ? `${result.outcome.error.name} at ${result.outcome.stage}: ${result.outcome.error.message}` : "no result";
      io.stderr(`error: the dialectic did not finish (${failure})\n`);
      return EXIT.failure;
    }
    const outcome = DialecticOutcomeSchema.parse(result.rollout.artifacts);
    io.stdout(options.json ? `${JSON.stringify(jsonReport(outcome))}\n` : formatDialectic(outcome, result.rewards["proposer"] as number));
    return EXIT.ok;
  } finally {
    await client.dispose();
  }
}

export function jsonReport(outcome: DialecticOutcome): DialecticJsonReport {
  return {
    state: outcome.state,
    pattern: outcome.pattern,
    rounds: outcome.rounds.map((round) => ({
      round: round.round,
      score: round.critique.score,
      approved: round.critique.approved,
      issues: round.critique.issues,
      strategy: round.strategy,
    })),
    finalOutput: outcome.finalOutput,
    finalScore: outcome.finalScore,
  };
}

const ISSUES_WIDTH = 50;

/** The round history as a table, then the final state and output. */
export function formatDialectic(outcome: DialecticOutcome, proposerReward: number): string {
  const header = ["round", "score", "approved", "issues".padEnd(ISSUES_WIDTH), "strategy"];
  const rows = outcome.rounds.map((round) => [
    String(round.round),
    round.critique.score.toFixed(2),
    round.critique.approved ? "yes" : "no",
    clip(round.critique.issues.join("; ") || "-", ISSUES_WIDTH).padEnd(ISSUES_WIDTH),
    strategyCell(round),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column] as number)).join("  ").trimEnd();
  const pattern = outcome.pattern === null ? "" : ` (oscillation: ${outcome.pattern})`;
  return (
    [line(header), ...rows.map(line)].join("\n") +
    `\n\nstate: ${outcome.state}${pattern} after ${outcome.rounds.length} round(s); ` +
    `final score ${outcome.finalScore.toFixed(2)} from round ${outcome.finalRound}; proposer reward ${proposerReward.toFixed(3)}\n` +
    `final output:\n${outcome.finalOutput}\n`
  );
}

function strategyCell(round: DialecticRound): string {
  if (round.pattern === null) return "-";
  return round.strategy === null ? `(${round.pattern})` : `${round.strategy} (${round.pattern})`;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

export function registerDialecticCommand(program: Command, { io, setExitCode }: CommandContext): void {
  program
    .command("dialectic")
    .description("Refine a proposal through proposer/critic rounds until it converges, oscillates, stalls or runs out of rounds.")
    .addOption(new Option("--task <text>", "what the proposer must produce (required)"))
    .addOption(new Option("--model <file>", "GGUF model playing proposer and critics (default: a scripted demo)"))
    .addOption(deviceOption())
    .addOption(new Option("--critics <n>", `critics judging each proposal, an integer from 1 to ${CRITIC_FOCUSES.length}`).default("1"))
    .addOption(new Option("--max-rounds <n>", "rounds before stopping with max_rounds, an integer from 1 to 100").default("5"))
    .addOption(new Option("--seed <n>", "run seed, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--json", "print {state, pattern, rounds, finalOutput, finalScore} as JSON"))
    .action(async (flags: Record<string, unknown>) => {
      setExitCode(await dialecticCommand(flags, io));
    });
}
