import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { JsonlAppender } from "../../core/jsonl/jsonl-appender.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { arithmeticExample } from "../../tasks/arithmetic/arithmetic-corpus.js";
import { evaluateArithmetic } from "../../tasks/arithmetic/evaluate-arithmetic.js";
import { heldOutExamples } from "../../tasks/arithmetic/held-out-examples.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../inference/model-files/create-random-model.js";
import { ModelPresetNameSchema } from "../../inference/model-files/model-presets.js";
import { describeVocabulary } from "../../inference/model-files/describe-vocabulary.js";
import { ByteVocabularyRequiredError } from "../../inference/errors/index.js";
import { Policy } from "../../training/tfjs/policy/policy.js";
import { pretrain } from "../../training/tfjs/pretrain/pretrain.js";
import { PretrainConfigurationSchema, lastPretrainStep } from "../../training/tfjs/pretrain/pretrain-configuration.js";
import { exportPolicyModel } from "../../training/tfjs/sync/export-policy-model.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag, numberFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";

export const PretrainCommandOptionsSchema = z.object({
  preset: z.enum(ModelPresetNameSchema.options, { error: `one of: ${ModelPresetNameSchema.options.join(", ")}` }),
  arch: z.enum(["llama", "qwen2"], { error: "one of: llama, qwen2" }),
  steps: integerFlag(1, 1_000_000),
  stopAfter: integerFlag(1, 1_000_000).optional(),
  batchSize: integerFlag(1, 4096),
  learningRate: numberFlag(1e-7, 1),
  seed: integerFlag(0, MAX_SEED),
  evaluateEvery: integerFlag(0, 1_000_000),
  evaluateProblems: integerFlag(1, 20_000),
  out: z.string({ error: "the GGUF file to write (--out FILE)" }).min(1, "a file path"),
  from: z.string().min(1, "a GGUF file path").optional(),
  force: z.boolean().default(false),
  ...DEVICE_FLAG,
});

/**
 * `selfplay pretrain`: a model from scratch on the arithmetic corpus. Writes
 * `OUT` and, beside it, `OUT.metrics.jsonl` (a line per step, and an
 * evaluation line — greedy held-out accuracy on the engine — every
 * `--evaluate-every` steps and at the end).
 */
export async function pretrainCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(PretrainCommandOptionsSchema, rawOptions);
  if (existsSync(options.out) && !options.force) throw new InvalidInputError("--out", "a file that does not exist yet (or add --force)", options.out);
  if (options.from !== undefined) await assertByteVocabulary(options.from);
  await mkdir(dirname(options.out), { recursive: true });
  const configuration = PretrainConfigurationSchema.parse({ steps: options.steps, batchSize: options.batchSize, learningRate: options.learningRate, seed: options.seed, stopAfter: options.stopAfter });
  const lastStep = lastPretrainStep(configuration);
  let initial = options.from;
  if (initial === undefined) {
    initial = join(dirname(options.out), `.pretrain-initial-${options.preset}-${options.arch}-${options.seed}.gguf`);
    await createRandomModel({ path: initial, preset: options.preset, architecture: options.arch, seed: options.seed });
  }
  const policy = await Policy.load({ modelPath: initial });
  const metrics = await JsonlAppender.open(`${options.out}.metrics.jsonl`);
  const heldOut = heldOutExamples(options.evaluateProblems);
  const started = performance.now();
  let announced = false;
  const evaluate = async (step: number) => {
    await exportPolicyModel(policy, options.out);
    const client = await LlamaInferenceClient.create({ modelPath: options.out, sequences: 16, device: options.device });
    if (!announced) announceDevice(io, client);
    announced = true;
    try {
      const result = await evaluateArithmetic(client, heldOut);
      await metrics.append({ step, heldOutAccuracy: result.heldOutAccuracy, n: result.n, elapsedSeconds: (performance.now() - started) / 1000 });
      io.stderr(`step ${step}: held-out accuracy ${(100 * result.heldOutAccuracy).toFixed(1)}% (n=${result.n})\n`);
      return result;
    } finally {
      await client.dispose();
    }
  };
  const source = options.from === undefined ? `${options.preset} ${options.arch}` : options.from;
  io.stderr(`pretraining ${source} (${policy.parameterCount} parameters) on ${policy.backend.backend}\n`);
  try {
    let window = { loss: 0, tokensPerSecond: 0, count: 0 };
    await pretrain({
      policy,
      configuration,
      example: arithmeticExample,
      onStep: async (progress) => {
        await metrics.append(progress);
        window = { loss: window.loss + progress.loss, tokensPerSecond: window.tokensPerSecond + progress.tokensPerSecond, count: window.count + 1 };
        if ((progress.step + 1) % 50 === 0) {
          io.stderr(`step ${progress.step + 1}/${configuration.steps}: loss ${(window.loss / window.count).toFixed(3)}, ${(window.tokensPerSecond / window.count).toFixed(0)} tokens/s\n`);
          window = { loss: 0, tokensPerSecond: 0, count: 0 };
        }
        if (options.evaluateEvery > 0 && (progress.step + 1) % options.evaluateEvery === 0 && progress.step + 1 < lastStep) await evaluate(progress.step + 1);
      },
    });
    const final = await evaluate(lastStep);
    io.stdout(`${JSON.stringify({ out: options.out, steps: lastStep, heldOutAccuracy: final.heldOutAccuracy, n: final.n })}\n`);
    return EXIT.ok;
  } finally {
    await metrics.close();
    policy.dispose();
  }
}

/**
 * The arithmetic corpus is written in byte tokens (`arithmeticExample`): on a model of another vocabulary those ids
 * are other text, and pretraining would train on it without a word. Refused before anything is written.
 */
async function assertByteVocabulary(from: string): Promise<void> {
  const vocabulary = await describeVocabulary(from);
  if (vocabulary.byteVocabulary) return;
  throw new ByteVocabularyRequiredError(
    "--from",
    from,
    vocabulary.size,
    "a model of the byte vocabulary (one pretrain wrote, or leave --from out for a random --preset); the arithmetic corpus is byte tokens. " +
      "To train a model of its own vocabulary, use RL on it: selfplay train --model FILE",
  );
}

export function registerPretrainCommand(program: Command, context: CommandContext): void {
  program
    .command("pretrain")
    .description("Train a project-made model from scratch on the arithmetic corpus (held-out problems never seen).")
    .addOption(new Option("--preset <name>", "model size: tiny, small or medium").default("small"))
    .addOption(new Option("--arch <name>", "llama or qwen2").default("llama"))
    .addOption(new Option("--steps <n>", "optimizer steps").default("3000"))
    .addOption(new Option("--stop-after <n>", "end after this many steps, the learning-rate schedule still spanning --steps"))
    .addOption(new Option("--batch-size <n>", "examples per step").default("32"))
    .addOption(new Option("--learning-rate <x>", "peak learning rate (warm-up, then cosine to a tenth)").default("0.003"))
    .addOption(new Option("--seed <n>", "seed of the initial weights and the example stream").default("0"))
    .addOption(new Option("--evaluate-every <n>", "steps between held-out evaluations on the engine (0: only at the end)").default("500"))
    .addOption(new Option("--evaluate-problems <n>", "held-out problems per evaluation").default("500"))
    .addOption(new Option("--from <file>", "continue from this model of the byte vocabulary instead of a random one (--preset and --arch are then ignored; another vocabulary is refused)"))
    .addOption(new Option("--out <file>", "the GGUF model to write"))
    .addOption(new Option("--force", "overwrite --out"))
    .addOption(deviceOption())
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await pretrainCommand(flags, context));
    });
}
