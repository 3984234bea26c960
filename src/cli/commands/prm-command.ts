import { Option, type Command } from "commander";
import { z } from "zod";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { createFeaturiser } from "../../curriculum/prm/create-featuriser.js";
import { EmbeddingFeaturiser } from "../../curriculum/prm/embedding-featuriser.js";
import type { Featuriser } from "../../curriculum/prm/featuriser.js";
import type { FeaturiserSettings } from "../../curriculum/prm/featuriser-settings.js";
import { HashedNgramFeaturiser } from "../../curriculum/prm/hashed-ngram-featuriser.js";
import { OnnxPrmScorer } from "../../curriculum/prm/onnx-prm-scorer.js";
import { PRM_FILES } from "../../curriculum/prm/prm-metadata.js";
import { PrmStateSchema } from "../../curriculum/prm/prm-state.js";
import { readPrmExamples } from "../../curriculum/prm/read-prm-examples.js";
import { readPrmMetadata } from "../../curriculum/prm/read-prm-metadata.js";
import { LlamaTextEmbedder } from "../../inference/embeddings/llama-text-embedder.js";
import { TfjsBackendNameSchema, describeBackendSelection, selectBackend } from "../../../trainers/backend/select-backend.js";
import { loadPrm } from "../../../trainers/prm/load-prm.js";
import { savePrm } from "../../../trainers/prm/save-prm.js";
import { trainPrm } from "../../../trainers/prm/train-prm.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext, RegisterCommand } from "../command-context.js";
import { integerFlag, numberFlag } from "../flag-schemas.js";
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

export const PrmScoreCommandOptionsSchema = z.object({
  model: z.string({ error: "the PRM directory (--model DIR)" }).min(1, "a directory"),
  input: z.string({ error: "a JSONL file of states (--input FILE)" }).min(1, "a file path"),
  policy: z.string().min(1, "a GGUF file path").optional(),
});

/** The featuriser to train or score with, and what to dispose when done. */
interface OpenFeaturiser {
  featuriser: Featuriser;
  dispose: () => Promise<void>;
}

async function embeddingFeaturiser(modelPath: string): Promise<OpenFeaturiser> {
  const embedder = await LlamaTextEmbedder.create({ modelPath });
  return { featuriser: new EmbeddingFeaturiser(embedder, modelPath), dispose: () => embedder.dispose() };
}

/** The featuriser a saved PRM was trained with; an embedding one loads its model (or `policy`, when it moved). */
async function savedFeaturiser(settings: FeaturiserSettings, policy: string | undefined, source: string): Promise<OpenFeaturiser> {
  const open = settings.kind === "embedding" ? await embeddingFeaturiser(policy ?? settings.model) : undefined;
  try {
    return { featuriser: createFeaturiser(settings, open?.featuriser, source), dispose: open?.dispose ?? (async () => undefined) };
  } catch (error) {
    await open?.dispose();
    throw error;
  }
}

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
    ? await savedFeaturiser(initial.metadata.featuriser, options.policy, `${options.from}/${PRM_FILES.metadata}`)
    : options.policy !== undefined
      ? await embeddingFeaturiser(options.policy)
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
  const metadata = await readPrmMetadata(options.model);
  const open = await savedFeaturiser(metadata.featuriser, options.policy, `${options.model}/${PRM_FILES.metadata}`);
  try {
    const scorer = await OnnxPrmScorer.load(options.model, { featuriser: open.featuriser });
    try {
      const scores = await scorer.score(states);
      io.stdout(scores.map((score) => `${score}\n`).join(""));
      return EXIT.ok;
    } finally {
      await scorer.dispose();
    }
  } finally {
    await open.dispose();
  }
}

export const registerPrmCommands: RegisterCommand = (program: Command, context: CommandContext) => {
  const prm = program.command("prm").description("The process reward model: train it on labelled trajectories, score states with it.");
  prm
    .command("train")
    .description("Train (or fine-tune with --from) a PRM; writes DIR/prm.onnx and DIR/prm.json and prints held-out metrics.")
    .addOption(new Option("--trajectories <glob>", 'labelled states, JSONL: {"task", "cluster", "prefix", "label"} a line (* ? ** allowed)'))
    .addOption(new Option("--out <dir>", "directory to write prm.onnx and prm.json to"))
    .addOption(new Option("--from <dir>", "a PRM to fine-tune (keeps its featuriser and shape)"))
    .addOption(new Option("--policy <file>", "GGUF model whose embeddings are the features (default: hashed n-grams, no model)"))
    .addOption(new Option("--dimensions <n>", "hashed n-gram buckets (the PRM's input width)").default("1024"))
    .addOption(new Option("--hidden <n>", "hidden layer width").default("64"))
    .addOption(new Option("--activation <name>", "hidden activation: relu, tanh").default("relu"))
    .addOption(new Option("--epochs <n>", "passes over the training split").default("20"))
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
    .command("score")
    .description("Score states with a trained PRM: one probability a line.")
    .addOption(new Option("--model <dir>", "the PRM directory (prm.onnx + prm.json)"))
    .addOption(new Option("--input <file>", 'states, JSONL: {"task", "cluster", "prefix"} a line'))
    .addOption(new Option("--policy <file>", "the embedding model, when an embedding PRM's model has moved"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await prmScoreCommand(flags, context));
    });
};
