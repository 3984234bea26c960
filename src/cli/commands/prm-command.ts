import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { byteVocabularyText } from "../../frontier/labelling/byte-vocabulary-text.js";
import { labelTrajectories } from "../../frontier/labelling/label-trajectories.js";
import { continuedStep } from "../../frontier/labelling/continued-step.js";
import type { LabelledEpisode } from "../../frontier/labelling/labelled-episode.js";
import { readRolloutTrajectories } from "../../frontier/labelling/read-rollout-trajectories.js";
import { HashedNgramFeaturiser } from "../../frontier/prm/hashed-ngram-featuriser.js";
import { openEmbeddingFeaturiser, openSavedFeaturiser } from "../../frontier/prm/open-featuriser.js";
import { openPrmScorer } from "../../frontier/prm/open-prm-scorer.js";
import { PRM_FILES } from "../../frontier/prm/prm-metadata.js";
import { PrmStateSchema, type PrmExample } from "../../frontier/prm/prm-state.js";
import { readPrmExamples } from "../../frontier/prm/read-prm-examples.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { ByteVocabularyRequiredError } from "../../inference/errors/index.js";
import { describeVocabulary } from "../../inference/model-files/describe-vocabulary.js";
import { findTrainingCheckpoint } from "../../training/loop/training-checkpoint-files.js";
import { TfjsBackendNameSchema, describeBackendSelection, selectBackend } from "../../training/tfjs/backend/select-backend.js";
import { loadPrm } from "../../training/prm/load-prm.js";
import { loadEnvironment } from "../../tasks/built-in-environments.js";
import { rolloutsFileEpisodes } from "../../training/prm/rollouts-file-episodes.js";
import { runFinalPolicy, type RunFinalPolicy } from "../../training/loop/run-final-policy.js";
import { savePrm } from "../../training/prm/save-prm.js";
import { trainPrm } from "../../training/prm/train-prm.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext, RegisterCommand } from "../command-context.js";
import { integerFlag, numberFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";

export const PrmTrainCommandOptionsSchema = z.object({
  trajectories: z.string({ error: "a glob of labelled-trajectory JSONL files (--trajectories GLOB)" }).min(1, "a glob"),
  out: z.string({ error: "the directory to write prm.onnx and prm.json to (--out DIR)" }).min(1, "a directory"),
  from: z.string().min(1, "a PRM directory").optional(),
  policy: z.string().min(1, "a GGUF file path").optional(),
  dimensions: integerFlag(8, 1 << 20),
  hidden: integerFlag(1, 4096),
  activation: z.enum(["relu", "tanh"], { error: "one of: relu, tanh" }),
  epochs: integerFlag(0, 100_000),
  batchSize: integerFlag(1, 65_536),
  learningRate: numberFlag(1e-7, 1),
  heldOut: numberFlag(0, 0.9),
  seed: integerFlag(0, MAX_SEED),
  backend: z.enum(TfjsBackendNameSchema.options, { error: `one of: ${TfjsBackendNameSchema.options.join(", ")}` }).optional(),
  json: z.boolean().default(false),
});

export const PrmLabelCommandOptionsSchema = z.object({
  trajectories: z.string({ error: "a glob of rollouts.jsonl files (--trajectories GLOB)" }).min(1, "a glob"),
  out: z.string({ error: "the JSONL file to write the labelled states to (--out FILE)" }).min(1, "a file path"),
  rollouts: integerFlag(0, 10_000),
  model: z.string().min(1, "a GGUF file path").optional(),
  chunk: integerFlag(1, 1_000_000),
  seed: integerFlag(0, MAX_SEED),
  sequences: integerFlag(1, 256),
  env: z.string().min(1, "a built-in environment name or a JavaScript module path").optional(),
  json: z.boolean().default(false),
  ...DEVICE_FLAG,
});

export const PrmScoreCommandOptionsSchema = z.object({
  model: z.string({ error: "the PRM directory (--model DIR)" }).min(1, "a directory"),
  input: z.string({ error: "a JSONL file of states (--input FILE)" }).min(1, "a file path"),
  policy: z.string().min(1, "a GGUF file path").optional(),
});

/**
 * `selfplay prm train`: trains a PRM on labelled states (JSONL, one
 * `{task, cluster, prefix, label}` a line), or fine-tunes one with `--from`,
 * and writes `OUT/prm.onnx` and `OUT/prm.json`. Features are the policy
 * model's embeddings with `--policy FILE`, else hashed n-grams. Prints the
 * held-out metrics: `{auc, brier, ece, n, baselineAuc}` with `--json`.
 */
export async function prmTrainCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(PrmTrainCommandOptionsSchema, rawOptions);
  const { examples, files, tornFiles } = await readPrmExamples(options.trajectories);
  for (const file of tornFiles) io.stderr(`warning: ${file}: its last line is torn (an interrupted write) and was skipped\n`);
  const initial = options.from === undefined ? undefined : await loadPrm(options.from);
  const open = initial
    ? await openSavedFeaturiser(initial.metadata.featuriser, options.policy, `${options.from}/${PRM_FILES.metadata}`)
    : options.policy !== undefined
      ? await openEmbeddingFeaturiser(options.policy)
      : { featuriser: new HashedNgramFeaturiser({ dimensions: options.dimensions }), dispose: async () => undefined };
  try {
    const backend = await selectBackend(options.backend === undefined ? {} : { candidates: [options.backend] });
    const trained = await trainPrm(examples, {
      featuriser: open.featuriser,
      configuration: {
        hiddenDimensions: options.hidden,
        activation: options.activation,
        epochs: options.epochs,
        batchSize: options.batchSize,
        learningRate: options.learningRate,
        heldOutFraction: options.heldOut,
        seed: options.seed,
      },
      initial: initial && options.from !== undefined ? { shape: initial.metadata.network, weights: initial.weights, from: options.from } : undefined,
    });
    try {
      await savePrm(options.out, trained.network.weights(), trained.metadata);
    } finally {
      trained.network.dispose();
    }
    const { auc, brier, ece, n, baselineAuc } = trained.metadata.training.heldOut;
    if (options.json) io.stdout(`${JSON.stringify({ auc, brier, ece, n, baselineAuc })}\n`);
    else {
      const show = (value: number | null) => (value === null ? "n/a" : value.toFixed(4));
      io.stdout(
        `PRM trained on ${trained.metadata.training.trainExamples} states from ${files.length} file(s) (${describeBackendSelection(backend)}) → ${options.out}\n` +
          `held-out (n=${n}): AUC ${show(auc)} (per-cluster prior ${show(baselineAuc)}), Brier ${show(brier)}, ECE ${show(ece)}\n`,
      );
    }
    return EXIT.ok;
  } finally {
    await open.dispose();
  }
}

/** `selfplay prm score`: the PRM's probability for each state of a JSONL file (`{task, cluster, prefix}` a line), one a line. */
export async function prmScoreCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(PrmScoreCommandOptionsSchema, rawOptions);
  const { records: states } = await readJsonl(options.input, PrmStateSchema);
  const open = await openPrmScorer(options.model, options.policy === undefined ? {} : { policy: options.policy });
  try {
    const scores = await open.scorer.score(states);
    io.stdout(scores.map((score) => `${score}\n`).join(""));
    return EXIT.ok;
  } finally {
    await open.dispose();
  }
}

/**
 * `selfplay prm label`: PRM examples from the rollouts.jsonl files of any
 * run, one `{task, cluster, prefix, label}` a line, written whole
 * (write-then-rename). Each file is read with the environment its run
 * folder's checkpoint records (or `--env`): every scored rollout of its
 * labelled episode types gives one trajectory per trainable role, clustered
 * by the environment's clusters (one cluster per episode type without).
 * With `--rollouts 0` every prefix is labelled with its trajectory's outcome
 * (reward > 0 → 1, else 0); with K > 0 — single-Step episodes only, a
 * multi-turn one is refused by name — with the success share of K
 * continuations sampled from it on `--model`, by default the policy the run
 * folder each file is in ended with (`runFinalPolicy`: `final.gguf`, or
 * `final.lora.gguf` over its base), each re-scored by the episode's own
 * verifier.
 */
export async function prmLabelCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(PrmLabelCommandOptionsSchema, rawOptions);
  const { byFile, trajectories, tornFiles } = await readRolloutTrajectories(options.trajectories, rolloutsFileEpisodes(loadEnvironment, options.env));
  for (const file of tornFiles) io.stderr(`warning: ${file}: its last line is torn (an interrupted write) and was skipped\n`);
  // Found before any model loads, so a bad folder or a multi-turn episode costs nothing.
  const policies = new Map<string, RunFinalPolicy | undefined>();
  for (const { file } of byFile) {
    const policy = options.model !== undefined ? { modelPath: options.model } : options.rollouts > 0 ? await runFinalPolicy(dirname(file)) : undefined;
    if (policy === undefined) await assertRunOfByteVocabulary(file);
    policies.set(file, policy);
  }
  if (options.rollouts > 0) for (const trajectory of trajectories) continuedStep(trajectory);
  // One client per policy, shared by the files that use it.
  const clients = new Map<string, LlamaInferenceClient>();
  const clientFor = async (policy: RunFinalPolicy | undefined) => {
    if (policy === undefined) return undefined;
    const key = JSON.stringify(policy);
    const opened = clients.get(key);
    const client = opened ?? (await LlamaInferenceClient.create({ ...policy, sequences: options.sequences, device: options.device }));
    if (clients.size === 0 && opened === undefined) announceDevice(io, client);
    clients.set(key, client);
    return client;
  };
  const examples: PrmExample[] = [];
  let continuations = 0;
  try {
    for (const { file, episodes, trajectories: fileTrajectories } of byFile) {
      const policy = policies.get(file);
      const client = await clientFor(policy);
      if (options.rollouts > 0 && policy) {
        const on = policy.loraPath === undefined ? policy.modelPath : `${policy.loraPath} over ${policy.modelPath}`;
        io.stderr(`labelling ${file}: ${fileTrajectories.length} trajectories, ${options.rollouts} continuations per prefix on ${on}\n`);
      }
      const labelled = await labelTrajectories(fileTrajectories, {
        rollouts: options.rollouts,
        chunk: options.chunk,
        detokenize: client ? (tokenIds) => client.detokenize(tokenIds) : byteVocabularyText,
        ...(client && { client }),
        verifierFor: (episodeType) => (episodes.byType[episodeType] as LabelledEpisode).verifier,
        seed: options.seed,
      });
      for (const example of labelled.examples) examples.push(example);
      continuations += labelled.continuations;
    }
  } finally {
    for (const client of clients.values()) await client.dispose();
  }
  await mkdir(dirname(options.out), { recursive: true });
  await writeFileAtomic(options.out, examples.map((example) => `${JSON.stringify(example)}\n`).join(""));
  const meanLabel = examples.reduce((sum, example) => sum + example.label, 0) / examples.length;
  const summary = { files: byFile.length, trajectories: trajectories.length, states: examples.length, rollouts: options.rollouts, continuations, meanLabel };
  if (options.json) io.stdout(`${JSON.stringify(summary)}\n`);
  else {
    const how = options.rollouts === 0 ? "each labelled with its trajectory's outcome" : `labelled by ${options.rollouts} continuations each`;
    io.stdout(`${examples.length} states from ${trajectories.length} trajectories in ${byFile.length} file(s), ${how}; mean label ${meanLabel.toFixed(3)} → ${options.out}\n`);
  }
  return EXIT.ok;
}

/**
 * Without a model, labels read token ids with the byte vocabulary (`byteVocabularyText`): a run of a model of
 * another vocabulary (its checkpoint's base, when that file is here) would be read as other text, so it is refused.
 * Loose rollouts, or a run whose base is elsewhere, keep `byteVocabularyText`'s own check of each id.
 */
async function assertRunOfByteVocabulary(file: string): Promise<void> {
  const { checkpoint } = await findTrainingCheckpoint(dirname(file));
  if (checkpoint === undefined || !existsSync(checkpoint.modelPath)) return;
  const vocabulary = await describeVocabulary(checkpoint.modelPath);
  if (vocabulary.byteVocabulary) return;
  throw new ByteVocabularyRequiredError(
    "--model",
    checkpoint.modelPath,
    vocabulary.size,
    `the model that wrote ${file}, for its tokenizer: pass --model ${checkpoint.modelPath} (or the run's final policy)`,
  );
}

export const registerPrmCommands: RegisterCommand = (program: Command, context: CommandContext) => {
  const prm = program.command("prm").description("The process reward model: label trajectories, train it on them, score states with it.");
  prm
    .command("train")
    .description("Train (or fine-tune with --from) a PRM; writes DIR/prm.onnx and DIR/prm.json and prints held-out metrics.")
    .addOption(new Option("--trajectories <glob>", 'labelled states, JSONL: {"task", "cluster", "prefix", "label"} a line (* ? ** allowed)'))
    .addOption(new Option("--out <dir>", "directory to write prm.onnx and prm.json to"))
    .addOption(new Option("--from <dir>", "a PRM to fine-tune (keeps its featuriser and shape)"))
    .addOption(new Option("--policy <file>", "GGUF model whose embeddings are the features (default: hashed n-grams, no model)"))
    .addOption(new Option("--dimensions <n>", "hashed n-gram buckets (the PRM's input width)").default("256"))
    .addOption(new Option("--hidden <n>", "hidden layer width").default("16"))
    .addOption(new Option("--activation <name>", "hidden activation: relu, tanh").default("relu"))
    .addOption(new Option("--epochs <n>", "passes over the training split").default("10"))
    .addOption(new Option("--batch-size <n>", "states per AdamW step").default("64"))
    .addOption(new Option("--learning-rate <x>", "AdamW learning rate").default("0.003"))
    .addOption(new Option("--held-out <fraction>", "share of tasks held out for the metrics").default("0.2"))
    .addOption(new Option("--seed <n>", "seed of the initial weights and the shuffling").default("0"))
    .addOption(new Option("--backend <name>", "tfjs backend: tensorflow, wasm, cpu (default: the best that loads)"))
    .addOption(new Option("--json", "print {auc, brier, ece, n, baselineAuc} of the held-out split"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await prmTrainCommand(flags, context));
    });
  prm
    .command("label")
    .description("Label the partial solutions in any run's rollouts for PRM training: by their outcome, or by K continuations each (Monte-Carlo, single-Step episodes).")
    .addOption(new Option("--trajectories <glob>", "rollouts.jsonl files of selfplay train or run (* ? ** allowed)"))
    .addOption(new Option("--env <name>", "the environment that made them, at its default options (default: the one each run folder's checkpoint records): a built-in name or ./module.js"))
    .addOption(new Option("--out <file>", "JSONL file of labelled states to write"))
    .addOption(new Option("--rollouts <k>", "continuations per prefix; 0 labels every prefix with its trajectory's outcome").default("0"))
    .addOption(new Option("--model <file>", "GGUF model the continuations are sampled on (default: each run's final.gguf, or final.lora.gguf over its base); its tokenizer reads the tokens; with --rollouts 0 the byte vocabulary reads them, and a run of a model of another vocabulary needs --model"))
    .addOption(deviceOption())
    .addOption(new Option("--chunk <n>", "completion tokens per prefix step").default("1"))
    .addOption(new Option("--seed <n>", "seed of the continuations").default("0"))
    .addOption(new Option("--sequences <n>", "sequences the engine decodes in parallel").default("16"))
    .addOption(new Option("--json", "print {files, trajectories, states, rollouts, continuations, meanLabel}"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await prmLabelCommand(flags, context));
    });
  prm
    .command("score")
    .description("Score states with a trained PRM: one probability a line.")
    .addOption(new Option("--model <dir>", "the PRM directory (prm.onnx + prm.json)"))
    .addOption(new Option("--input <file>", 'states, JSONL: {"task", "cluster", "prefix"} a line'))
    .addOption(new Option("--policy <file>", "the embedding model, when an embedding PRM's model has moved"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await prmScoreCommand(flags, context));
    });
};
