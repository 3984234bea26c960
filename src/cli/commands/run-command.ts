import { Option, type Command } from "commander";
import { z } from "zod";
import { Arena } from "../../arena/arena.js";
import { perWorkerThreads } from "../../arena/pool/per-worker-threads.js";
import { WorkerEngineClient } from "../../arena/pool/worker-engine-client.js";
import { RunDirectory } from "../../arena/run-directory.js";
import { runBatches } from "../../arena/run-batches.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { BatchPlanEntry } from "../../arena/arena.js";
import type { Environment } from "../../environments/environment.js";
import type { ScriptedRule } from "../../inference/scripted-inference-client.js";
import { basename } from "node:path";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { ScriptedInferenceClient } from "../../inference/scripted-inference-client.js";
import { ensureDefaultModel } from "../../inference/model-files/default-model.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { BUILT_IN_ENVIRONMENTS, loadEnvironment } from "../../tasks/built-in-environments.js";
import { environmentEpisodes } from "../../environments/environment-episodes.js";
import { integerFlag } from "../flag-schemas.js";
import { describeDevice } from "../../inference/device/resolve-device.js";
import { findDevice } from "../../inference/native/open-native-device.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";
import { OpenAICompatibleClient } from "../../inference/server/openai-compatible-client.js";
import { addServerClientOptions, SERVER_CLIENT_FLAGS, serverClientSettings } from "../server-client-flags.js";
import { describePoolSetting, POOL_ENGINE_HELP, POOL_FLAGS, resolvePoolSetting, WORKERS_HELP } from "../pool-setting.js";
import { createProgressBar } from "../progress-bar.js";
import { formatRunSummary } from "../run-summary.js";

export const RunCommandOptionsSchema = z.object({
  client: z.enum(["scripted", "llama", "openai"], { error: "one of: scripted, llama, openai" }).optional(),
  model: z.string().min(1, "a GGUF file path").optional(),
  sequences: integerFlag(1, 256),
  seed: integerFlag(0, MAX_SEED),
  count: integerFlag(1),
  batchSize: integerFlag(1),
  concurrency: integerFlag(1),
  out: z.string().min(1, "a folder path").optional(),
  ...SERVER_CLIENT_FLAGS,
  ...POOL_FLAGS,
  ...DEVICE_FLAG,
});
export type RunCommandOptions = z.infer<typeof RunCommandOptionsSchema>;

/**
 * `selfplay run <environment>`: plays the first episode type of an
 * environment's plan (a built-in one, at its default options), records the
 * run, prints a one-line summary.
 */
export async function runCommand(episodeName: string, rawOptions: unknown, { io, now, environment = process.env }: Omit<CommandContext, "setExitCode">): Promise<number> {
  if (!(episodeName in BUILT_IN_ENVIRONMENTS)) {
    throw new InvalidInputError("episode", `one of: ${Object.keys(BUILT_IN_ENVIRONMENTS).join(", ")}`, episodeName);
  }
  const options = parseOptions(RunCommandOptionsSchema, rawOptions);
  const server = serverClientSettings(options, environment);
  const task = await loadEnvironment(episodeName);
  // One episode type, one request per prompt: a look at the task's play, not a training step.
  const plan = { episodeType: (task.plan[0] as BatchPlanEntry).episodeType };
  // The real engine is the default; the scripted client is asked for by name (tests, dry runs).
  const clientKind = options.client ?? "llama";
  if (clientKind === "scripted" && options.model !== undefined) {
    throw new InvalidInputError("--client", "llama (or no --client) when --model is given", "scripted");
  }
  const pool = await resolvePoolSetting(options, {
    environment,
    ...(clientKind === "scripted" && { ignoreSavedDefault: "the saved bench default is for the real engine, not --client scripted" }),
  });
  if (clientKind !== "llama" && pool.engine === "per-worker") {
    throw new InvalidInputError("--pool-engine", `shared with --client ${clientKind} (an engine in each worker is a llama engine)`, pool.engine);
  }
  const out = options.out ?? `runs/${episodeName}-${now().toISOString().replace(/[:.]/g, "-")}`;
  const modelPath = clientKind === "scripted" ? undefined : (options.model ?? (await ensureDefaultModel()));
  io.stderr(describePoolSetting(pool));
  const client =
    modelPath === undefined
      ? new ScriptedInferenceClient({ rules: scriptedPlayersOf(task) })
      : server !== undefined
        ? await OpenAICompatibleClient.create({ ...server, modelPath })
        : pool.workers > 0 && pool.engine === "per-worker"
        ? await WorkerEngineClient.create({ modelPath, sequences: options.sequences, threads: perWorkerThreads(pool.workers), device: options.device })
        : await LlamaInferenceClient.create({ modelPath, sequences: options.sequences, device: options.device });
  // An engine in each worker opens the device there; the main thread names the one the request comes to.
  if (client instanceof WorkerEngineClient) io.stderr(`${describeDevice(await findDevice(options.device ?? "auto"))} (an engine in each worker)\n`);
  else announceDevice(io, client);
  try {
    const arena = new Arena({
      client,
      seed: options.seed,
      concurrency: options.concurrency,
      ...(pool.workers > 0 && { pool: { workers: pool.workers, engine: pool.engine, episodes: task.episodes } }),
    });
    try {
      for (const episode of await environmentEpisodes(task, episodeName)) arena.register(episode, task.stores[episode.type]);
      // config.json holds what determines the rollouts (the pool setting does not), and nothing about where or when they were written.
      const directory = await RunDirectory.create(out, {
        episode: episodeName,
        client: clientKind,
        model: modelPath === undefined ? null : basename(modelPath),
        sequences: options.sequences,
        seed: options.seed,
        count: options.count,
        batchSize: options.batchSize,
        concurrency: options.concurrency,
        plan,
      });
      const progress = createProgressBar(io, episodeName);
      try {
        const metrics = await runBatches({
          arena,
          directory,
          plan,
          count: options.count,
          batchSize: options.batchSize,
          onEpisodeEnd: progress.update,
        });
        progress.stop();
        io.stdout(formatRunSummary(episodeName, metrics, out));
        return EXIT.ok;
      } finally {
        progress.stop();
        await directory.close();
      }
    } finally {
      // Ends the pool's worker threads (none in-process).
      await arena.close();
    }
  } finally {
    await client.dispose();
  }
}

/** The task's scripted players, which `--client scripted` needs. */
function scriptedPlayersOf(task: Environment): readonly ScriptedRule[] {
  if (task.scriptedPlayers) return task.scriptedPlayers;
  throw new InvalidInputError("--client", `llama: the ${task.name} environment declares no scripted players`, "scripted");
}

export function registerRunCommand(program: Command, context: CommandContext): void {
  const { setExitCode } = context;
  const command = program
    .command("run")
    .description("Play an example episode and record the run (rollouts, training batches, metrics).")
    .argument("<episode>", `a built-in environment, played at its default options: one of ${Object.keys(BUILT_IN_ENVIRONMENTS).join(", ")}`)
    .addOption(new Option("--client <client>", "inference client: llama (node-llama-cpp, the default), openai (llama-server or vLLM endpoints, --endpoint) or scripted (a deterministic test double)"))
    .addOption(new Option("--model <file>", "GGUF model to play with (default: the bundled default model, created in models/ on first use)"))
    .addOption(deviceOption())
    .addOption(new Option("--sequences <n>", "sequences the engine decodes in parallel, an integer from 1 to 256").default("4"))
    .addOption(new Option("--seed <n>", "run seed, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--count <n>", "episodes (prompts) to play, an integer ≥ 1").default("16"))
    .addOption(new Option("--batch-size <n>", "episodes per batch (one TrainingBatch each), an integer ≥ 1").default("8"))
    .addOption(new Option("--concurrency <n>", "episodes in flight at once, an integer ≥ 1").default("16"))
    .addOption(new Option("--out <dir>", "run folder (default runs/<episode>-<timestamp>); must not hold a run already"))
    .addOption(new Option("--workers <n>", WORKERS_HELP))
    .addOption(new Option("--pool-engine <engine>", POOL_ENGINE_HELP));
  addServerClientOptions(command).action(async (episode: string, flags: Record<string, unknown>) => {
    setExitCode(await runCommand(episode, flags, context));
  });
}
