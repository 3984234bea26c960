import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";
import { runRiddleCurriculum, type RiddleCurriculumProgress, type RiddleCurriculumResult } from "../../riddles/curriculum/run-riddle-curriculum.js";
import { createRiddleEpisodes } from "../../tasks/riddles/riddle-episodes.js";
import { parseRiddleConfig, type RiddleConfig } from "../../riddles/riddle-config.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";
import { readConfigurationFile } from "../read-configuration-file.js";

const DOMAINS = ["arithmetic", "free-form"] as const;

export const RiddlesCommandOptionsSchema = z.object({
  /** Curriculum episodes to play. */
  episodes: integerFlag(1, 1_000_000),
  /** Run folder; default `runs/riddles-<timestamp>` from the injected clock. */
  out: z.string().min(1, "a folder path").optional(),
  /** GGUF model playing every role; default the bundled arithmetic base (arithmetic domain only). */
  model: z.string().min(1, "a GGUF file path").optional(),
  /** JSON file of the curriculum config (RiddleConfigSchema: strict keys). */
  config: z.string().min(1, "a JSON file path").optional(),
  /** Overrides the config's `domain`. */
  domain: z.enum(DOMAINS, { error: `one of: ${DOMAINS.join(", ")}` }).optional(),
  seed: integerFlag(0, MAX_SEED),
  json: z.boolean().default(false),
  ...DEVICE_FLAG,
});
export type RiddlesCommandOptions = z.infer<typeof RiddlesCommandOptionsSchema>;

/** Context the engine gets for free-form riddles: a critic's prompt holds the riddle, its solution, rules and an answer. */
const FREE_FORM_CONTEXT_SIZE = 4096;

/** `selfplay riddles`: runs the riddle curriculum and prints its metrics. */
export async function riddlesCommand(rawOptions: unknown, { io, now }: Pick<CommandContext, "io" | "now">): Promise<number> {
  const options = parseOptions(RiddlesCommandOptionsSchema, rawOptions);
  // Everything the user gave is checked before a model loads or a file is written.
  const rawConfig = options.config === undefined ? {} : await readConfigurationFile(options.config, "--config");
  const config = parseRiddleConfig(options.domain === undefined ? rawConfig : { ...rawConfig, domain: options.domain }, options.config ?? "config");
  if (config.domain === "free-form" && options.model === undefined) {
    throw new InvalidInputError(
      "--model",
      "a GGUF file of an instruction-following model for the free-form domain (the bundled base only reads a±b arithmetic; download a GGUF, e.g. a small instruct model from Hugging Face, and pass its path)",
    );
  }
  const out = options.out ?? join("runs", `riddles-${now().toISOString().replace(/[:.]/g, "-")}`);
  if (existsSync(join(out, "config.json"))) throw new InvalidInputError("--out", `a folder without a run in it (${join(out, "config.json")} exists; choose another --out)`, out);
  const modelPath = options.model ?? bundledArithmeticBase();
  const client = await LlamaInferenceClient.create({ modelPath, device: options.device, ...(config.domain === "free-form" && { contextSize: FREE_FORM_CONTEXT_SIZE }) });
  announceDevice(io, client);
  const progress = riddlesProgressBar(io);
  try {
    const result = await runRiddleCurriculum({
      config,
      episodes: options.episodes,
      out,
      client,
      seed: options.seed,
      createEpisodes: (hooks) => createRiddleEpisodes(config, { hooks }),
      runInfo: { model: basename(modelPath) },
      onProgress: progress.update,
    });
    progress.stop();
    io.stdout(options.json ? `${JSON.stringify(jsonReport(result, config))}\n` : formatRiddlesSummary(result, config));
    return EXIT.ok;
  } finally {
    progress.stop();
    await client.dispose();
  }
}

/** What `--json` prints: the run folder, the run's rates, and each episode's headline figures. */
export function jsonReport(result: RiddleCurriculumResult, config: RiddleConfig) {
  return {
    out: result.out,
    domain: config.domain,
    totals: result.totals,
    inboxAnswers: result.inboxAnswers,
    episodes: result.metrics.map((line) => ({ episode: line.episode, status: line.status, solveRate: line.solveRate, reward: line.reward, inBand: line.inBand, nearDuplicate: line.nearDuplicate, solverCallsSaved: line.solverCallsSaved })),
  };
}

function formatRiddlesSummary(result: RiddleCurriculumResult, config: RiddleConfig): string {
  const { totals } = result;
  const share = (value: number | null) => (value === null ? "-" : `${(value * 100).toFixed(1)}%`);
  return [
    `riddles (${config.domain}): ${totals.episodes} episode(s), ${totals.valid} with a valid riddle, ${totals.failed} failed`,
    `solve rate in band ${config.band.low}–${config.band.high}: ${share(totals.bandShare)} of valid riddles; mean riddler reward ${totals.meanReward?.toFixed(3) ?? "-"}`,
    `invalid drafts ${share(totals.invalidRate)}, near-duplicates ${share(totals.duplicateRate)}, solver calls saved by early stopping ${totals.solverCallsSaved}, partners ${totals.partnersUsed}`,
    ...(result.inboxAnswers === 0 ? [] : [`answered ${result.inboxAnswers} inbox question(s) into ${join(result.out, "actor_outbox.md")}`]),
    `wrote ${join(result.out, "metrics.jsonl")}, dataset.jsonl, riddler_memory.md, actor_memory.md, episodes/`,
    "",
  ].join("\n");
}

/** A one-line bar on a terminal: episodes done, the current episode's solvers and how many solved so far. */
function riddlesProgressBar(io: CliIo): { update: (progress: RiddleCurriculumProgress) => void; stop: () => void } {
  if (!io.isTerminal) return { update: () => undefined, stop: () => undefined };
  const width = 20;
  let drawn = false;
  return {
    update: (progress) => {
      const filled = Math.round((progress.episodesDone / progress.episodes) * width);
      drawn = true;
      io.stderr(
        `\rriddles [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${progress.episodesDone}/${progress.episodes} episodes · ` +
          `episode ${progress.episodeIndex}: solver ${progress.solversRun}/${progress.solversPlanned}, solved so far ${progress.solvedSoFar}\u001b[K`,
      );
    },
    stop: () => {
      if (drawn) io.stderr("\r\u001b[2K");
      drawn = false;
    },
  };
}

export function registerRiddlesCommand(program: Command, context: CommandContext): void {
  program
    .command("riddles")
    .description("Run the riddle curriculum: a riddler aims at a target solve rate, N solvers try each riddle, a critic grades; writes episodes, dataset, metrics and memories.")
    .addOption(new Option("--episodes <n>", "curriculum episodes, an integer from 1 to 1000000 (required)"))
    .addOption(new Option("--out <dir>", "run folder (default runs/riddles-<timestamp>); must not hold a run already"))
    .addOption(new Option("--model <file>", "GGUF model playing every role (default: the bundled arithmetic base; required for --domain free-form)"))
    .addOption(deviceOption())
    .addOption(new Option("--config <file>", "curriculum config as JSON (keys: domain, reward, band, solvers, waveSize, earlyStop, validityRetries, maxPartnersPerSolver, maxTotalPartners, duplicates, memory, streamGradeEachSolver, statusEverySolvers)"))
    .addOption(new Option("--domain <domain>", `riddle domain, overriding the config's: ${DOMAINS.join(" or ")}`))
    .addOption(new Option("--seed <n>", "run seed, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--json", "print the run's totals and per-episode figures as one JSON object"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await riddlesCommand(flags, context));
    });
}
