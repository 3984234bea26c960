import { Option, type Command } from "commander";
import { z } from "zod";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { heldOutExamples, sampleWithoutReplacement } from "../../tasks/arithmetic/held-out-examples.js";
import { evaluateArithmetic, type ArithmeticExample } from "../../tasks/arithmetic/evaluate-arithmetic.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { ensureDefaultModel } from "../../inference/model-files/default-model.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";

export const EvalCommandOptionsSchema = z.object({
  model: z.string().min(1, "a GGUF file path").optional(),
  task: z.enum(["arithmetic"], { error: "arithmetic (the only task so far)" }),
  problems: z.string().min(1, "a JSONL file path").optional(),
  n: integerFlag(1, 1_000_000).optional(),
  seed: integerFlag(0, MAX_SEED),
  samples: integerFlag(0, 64),
  sequences: integerFlag(1, 256),
  json: z.boolean().default(false),
  ...DEVICE_FLAG,
});

const ProblemLineSchema = z.object({ problem: z.string().min(1), answer: z.union([z.string(), z.number()]).transform(String) });

/**
 * `selfplay eval`: greedy accuracy of a model on arithmetic problems — a
 * problems file (`{"problem": "23+45", "answer": "68"}` a line), or the
 * held-out split, `--n` of them drawn with `--seed` — and pass@k with `--samples k`.
 */
export async function evalCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(EvalCommandOptionsSchema, rawOptions);
  let examples: (ArithmeticExample & { cluster?: string })[];
  if (options.problems !== undefined) {
    examples = (await readJsonl(options.problems, ProblemLineSchema)).records;
  } else {
    examples = heldOutExamples();
  }
  if (options.n !== undefined && options.n < examples.length) examples = sampleWithoutReplacement(examples, options.n, options.seed);
  const modelPath = options.model ?? (await ensureDefaultModel());
  const client = await LlamaInferenceClient.create({ modelPath, sequences: options.sequences, device: options.device });
  announceDevice(io, client);
  try {
    const result = await evaluateArithmetic(client, examples, { samples: options.samples, seed: options.seed });
    if (options.json) io.stdout(`${JSON.stringify({ model: modelPath, task: options.task, ...result })}\n`);
    else {
      const passAtK = result.passAtK ? `, pass@${result.passAtK.k} ${(100 * result.passAtK.value).toFixed(1)}%` : "";
      io.stdout(`${options.task}: greedy accuracy ${(100 * result.accuracy).toFixed(1)}% (${result.correct}/${result.n})${passAtK} — ${modelPath}\n`);
    }
    return EXIT.ok;
  } finally {
    await client.dispose();
  }
}

export function registerEvalCommand(program: Command, context: CommandContext): void {
  program
    .command("eval")
    .description("Greedy accuracy (and pass@k) of a model on a task's held-out problems or a problems file.")
    .addOption(new Option("--model <file>", "GGUF model (default: the bundled default model)"))
    .addOption(deviceOption())
    .addOption(new Option("--task <name>", "the task: arithmetic").default("arithmetic"))
    .addOption(new Option("--problems <file>", 'JSONL, one {"problem": "23+45", "answer": "68"} a line (default: the held-out split)'))
    .addOption(new Option("--n <n>", "problems to draw (default: all)"))
    .addOption(new Option("--seed <n>", "seed of the draw and of the pass@k samples").default("0"))
    .addOption(new Option("--samples <k>", "samples per problem at temperature 1 for pass@k (0: greedy only)").default("0"))
    .addOption(new Option("--sequences <n>", "sequences the engine decodes in parallel").default("16"))
    .addOption(new Option("--json", "print {accuracy, n, correct, passAtK?, byCluster}"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await evalCommand(flags, context));
    });
}
