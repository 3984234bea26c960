import { resolve } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import type { EnvironmentEvaluation } from "../../environments/environment.js";
import { evaluateEnvironment } from "../../environments/evaluate-environment.js";
import type { JsonValue } from "../../core/json.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { parseInput } from "../../core/parse-input.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { loadEnvironment } from "../../tasks/built-in-environments.js";
import { heldOutExamples, sampleWithoutReplacement } from "../../tasks/arithmetic/held-out-examples.js";
import { evaluateArithmetic, type ArithmeticExample } from "../../tasks/arithmetic/evaluate-arithmetic.js";
import { openFrozenPolicies } from "../../training/loop/open-frozen-policies.js";
import { TrainingConfigurationSchema } from "../../training/loop/training-configuration.js";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";
import { ensureDefaultModel } from "../../inference/model-files/default-model.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";
import { openCommandClient } from "../open-command-client.js";
import { addServerClientOptions, SERVER_CLIENT_FLAGS, serverClientSettings } from "../server-client-flags.js";
import { readConfigurationFile } from "../read-configuration-file.js";
import { formatEvaluationFigures } from "../format-evaluation-figures.js";
import { againstOpponents } from "../against-opponents.js";

export const EvalCommandOptionsSchema = z.object({
  model: z.string().min(1, "a GGUF file path").optional(),
  lora: z.string().min(1, "a LoRA adapter GGUF file path").optional(),
  env: z.string().min(1, "a built-in environment name or a module path (./my-environment.js)").optional(),
  config: z.string().min(1, "a JSON file path").optional(),
  data: z.string().min(1, "a dataset file path (.jsonl, .json, .csv, .parquet)").optional(),
  task: z.enum(["arithmetic"], { error: "arithmetic (the only task so far; --env evaluates any environment)" }).optional(),
  problems: z.string().min(1, "a JSONL file path").optional(),
  n: integerFlag(1, 1_000_000).optional(),
  seed: integerFlag(0, MAX_SEED),
  samples: integerFlag(0, 64),
  sequences: integerFlag(1, 256),
  json: z.boolean().default(false),
  against: z.array(z.string().min(1, '"base", a GGUF file or a run folder')).default([]),
  client: z.enum(["llama", "openai"], { error: "one of: llama, openai" }).optional(),
  ...SERVER_CLIENT_FLAGS,
  ...DEVICE_FLAG,
});
type EvalCommandOptions = z.infer<typeof EvalCommandOptionsSchema>;

const ProblemLineSchema = z.object({ problem: z.string().min(1), answer: z.union([z.string(), z.number()]).transform(String) });

/**
 * `selfplay eval`: with `--env`, any environment's held-out evaluation
 * (`evaluate`) on the engine, and pass@k with `--samples k` where the
 * environment can, and the policy's record against `--against` opponents
 * where it plays them; without it (`--task arithmetic`), greedy accuracy on
 * arithmetic problems — a problems file (`{"problem": "23+45", "answer":
 * "68"}` a line), or the held-out split, `--n` of them drawn with `--seed` —
 * with pass@k and accuracy per cluster.
 */
export async function evalCommand(rawOptions: unknown, { io, environment = process.env }: CommandContext): Promise<number> {
  const options = parseOptions(EvalCommandOptionsSchema, rawOptions);
  const server = serverClientSettings(options, environment);
  return options.env === undefined ? evalTask(options, server, io) : evalEnvironment(options, options.env, server, io);
}

type ServerSettings = ReturnType<typeof serverClientSettings>;

/** `--env NAME|./module.js`: the environment's own evaluation, its options from `--config`'s `environment`. */
async function evalEnvironment(options: EvalCommandOptions, name: string, server: ServerSettings, io: CliIo): Promise<number> {
  // Flags of the arithmetic problems path say nothing to an environment: refused, never ignored.
  if (options.task !== undefined) throw new InvalidInputError("--task", "no --task with --env (--env arithmetic evaluates the arithmetic environment's held-out problems)", options.task);
  if (options.problems !== undefined) throw new InvalidInputError("--problems", "no --problems with --env (the environment's options choose its held-out set: --config)", options.problems);
  if (options.n !== undefined) throw new InvalidInputError("--n", "no --n with --env (the environment's options size its held-out set: --config)", options.n);
  // The file `selfplay train --config` takes, so a run is evaluated with the options it trained with; only `environment` matters here.
  const configuration = options.config === undefined ? {} : await readConfigurationFile(options.config, "--config");
  const configured = parseInput(TrainingConfigurationSchema, configuration, { fieldName: (path) => `${options.config ?? "configuration"}: ${path.map(String).join(".")}` }).environment;
  // --data is the environment's `data` option, over the config file's, as with selfplay train.
  const environmentOptions = options.data === undefined ? configured : { ...(configured as object), data: resolve(options.data) };
  const environment = await loadEnvironment(name, environmentOptions as JsonValue).catch((error: unknown) => {
    if (error instanceof InvalidInputError && options.config !== undefined) error.message = `${options.config}: ${error.message}`;
    throw error;
  });
  if (environment.evaluate === undefined) {
    throw new InvalidInputError("--env", `an environment with a held-out evaluation; the ${environment.name} environment has no held-out evaluation (it defines no evaluate)`, name);
  }
  if (options.samples > 0 && environment.evaluatesPassAtK !== true) {
    throw new InvalidInputError("--samples", `0 (greedy only): the ${environment.name} environment's evaluation has no pass@k (it does not declare evaluatesPassAtK); leave out --samples`, options.samples);
  }
  if (options.against.length > 0 && environment.evaluatesOpponents !== true) {
    throw new InvalidInputError("--against", `no --against: the ${environment.name} environment's evaluation plays no opponents it is given (it does not declare evaluatesOpponents)`, options.against[0]);
  }
  const against = await againstOpponents(options.against);
  const modelPath = options.model ?? bundledArithmeticBase();
  const client = await openCommandClient(
    {
      modelPath,
      sequences: options.sequences,
      device: options.device,
      ...(options.lora !== undefined && { loraPath: options.lora }),
      ...(environment.contextSize !== undefined && { contextSize: environment.contextSize }),
    },
    server,
  );
  announceDevice(io, client);
  // Each opponent on its own engine here, over --model ("base" is --model itself), whatever serves the policy.
  const opponents = await openFrozenPolicies(against, modelPath, options.sequences, environment.contextSize, options.device).catch(async (error: unknown) => {
    await client.dispose();
    throw error;
  });
  try {
    const evaluateOptions = {
      ...(options.samples > 0 && { samples: options.samples, seed: options.seed }),
      ...(options.against.length > 0 && { opponents: Object.entries(opponents.roleClients).map(([opponent, opponentClient]) => ({ name: opponent, client: opponentClient })) }),
    };
    // Checked above: the environment has an evaluate.
    const { heldOutAccuracy, n, passAtK, figures } = (await evaluateEnvironment(environment, client, name, evaluateOptions)) as EnvironmentEvaluation;
    const model = `${modelPath}${options.lora === undefined ? "" : ` + ${options.lora}`}`;
    if (options.json) {
      io.stdout(`${JSON.stringify({ environment: environment.name, model: modelPath, ...(options.lora !== undefined && { lora: options.lora }), heldOutAccuracy, n, ...(passAtK && { passAtK }), ...(figures && { figures }) })}\n`);
    } else {
      io.stdout(`${environment.name}: held-out evaluation ${(100 * heldOutAccuracy).toFixed(1)}% (n=${n})${passAtK ? `, pass@${passAtK.k} ${(100 * passAtK.value).toFixed(1)}%` : ""}${formatEvaluationFigures(figures)} — ${model}\n`);
    }
    return EXIT.ok;
  } finally {
    await opponents.dispose();
    await client.dispose();
  }
}

/** `--task arithmetic` (the default): arithmetic problems from a file or the held-out split, greedy, pass@k, per cluster. */
async function evalTask(options: EvalCommandOptions, server: ServerSettings, io: CliIo): Promise<number> {
  if (options.config !== undefined) throw new InvalidInputError("--config", "no --config with --task (it holds an environment's options: give --env)", options.config);
  if (options.data !== undefined) throw new InvalidInputError("--data", "no --data with --task (its problems file is --problems; --data is an environment's: give --env dataset)", options.data);
  if (options.against.length > 0) throw new InvalidInputError("--against", "no --against with --task (opponents are a game's: --env tic-tac-toe)", options.against[0]);
  const task = options.task ?? "arithmetic";
  let examples: (ArithmeticExample & { cluster?: string })[];
  if (options.problems !== undefined) {
    examples = (await readJsonl(options.problems, ProblemLineSchema)).records;
  } else {
    examples = heldOutExamples();
  }
  if (options.n !== undefined && options.n < examples.length) examples = sampleWithoutReplacement(examples, options.n, options.seed);
  const modelPath = options.model ?? (await ensureDefaultModel());
  const client = await openCommandClient({ modelPath, sequences: options.sequences, device: options.device, ...(options.lora !== undefined && { loraPath: options.lora }) }, server);
  announceDevice(io, client);
  try {
    const result = await evaluateArithmetic(client, examples, { samples: options.samples, seed: options.seed });
    if (options.json) io.stdout(`${JSON.stringify({ model: modelPath, ...(options.lora !== undefined && { lora: options.lora }), task, ...result })}\n`);
    else {
      const passAtK = result.passAtK ? `, pass@${result.passAtK.k} ${(100 * result.passAtK.value).toFixed(1)}%` : "";
      io.stdout(`${task}: greedy accuracy ${(100 * result.heldOutAccuracy).toFixed(1)}% (${result.correct}/${result.n})${passAtK} — ${modelPath}${options.lora === undefined ? "" : ` + ${options.lora}`}\n`);
    }
    return EXIT.ok;
  } finally {
    await client.dispose();
  }
}

export function registerEvalCommand(program: Command, context: CommandContext): void {
  const command = program
    .command("eval")
    .description("An environment's held-out evaluation on the engine (--env), or greedy accuracy (and pass@k) on arithmetic problems (--task arithmetic, the default).")
    .addOption(new Option("--env <name>", "environment whose evaluate to run: arithmetic, exact-match, tournament, riddles, dream, tic-tac-toe, dataset (--data FILE), or ./module.js exporting createEnvironment"))
    .addOption(new Option("--config <file>", "with --env: JSON configuration whose environment holds the environment's options (the file selfplay train --config takes)"))
    .addOption(new Option("--data <file>", "with --env: the environment's data file (its `data` option): --env dataset or exact-match, or a module that reads it"))
    .addOption(new Option("--model <file>", "GGUF model (default: with --env the bundled arithmetic base in models/, with --task the bundled default model)"))
    .addOption(new Option("--lora <file>", "LoRA adapter GGUF to apply over the model (a run's final.lora.gguf)"))
    .addOption(deviceOption())
    .addOption(new Option("--task <name>", "the task of the problems path: arithmetic (the default without --env)"))
    .addOption(new Option("--problems <file>", 'with --task: JSONL, one {"problem": "23+45", "answer": "68"} a line (default: the held-out split)'))
    .addOption(new Option("--n <n>", "with --task: problems to draw (default: all)"))
    .addOption(new Option("--seed <n>", "seed of the pass@k samples (and of --task's draw)").default("0"))
    .addOption(new Option("--samples <k>", "samples per problem for pass@k, at temperature 1 (the dataset environment: at its `temperature`) (0: greedy only); with --env, only environments that declare evaluatesPassAtK").default("0"))
    .addOption(
      new Option("--against <policy>", 'with --env: an opponent to evaluate against, repeatable — "base" (--model), a GGUF model or LoRA adapter (a run\'s final.lora.gguf, named final), or a run folder (each policies/policy-v<N> file, named v<N>); environments that declare evaluatesOpponents (tic-tac-toe)').argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    )
    .addOption(new Option("--sequences <n>", "sequences the engine decodes in parallel").default("16"))
    .addOption(new Option("--json", "print {environment, model, lora?, heldOutAccuracy, n, passAtK?, figures?} with --env; {model, task, heldOutAccuracy, n, correct, passAtK?, byCluster} with --task"))
    .addOption(new Option("--client <client>", "where the model runs: llama (default: in this process) or openai (llama-server or vLLM endpoints, --endpoint)"));
  addServerClientOptions(command).action(async (flags: Record<string, unknown>) => {
    context.setExitCode(await evalCommand(flags, context));
  });
}
