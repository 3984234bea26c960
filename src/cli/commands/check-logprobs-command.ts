import { Option, type Command } from "commander";
import { z } from "zod";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { checkLogprobs, type CheckLogprobsResult } from "../../training/tfjs/check-logprobs.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";
import { describeDevice } from "../../inference/device/resolve-device.js";

const integerFlag = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: `an integer from ${minimum} to ${maximum}` })
    .int(`an integer from ${minimum} to ${maximum}`)
    .min(minimum, `an integer from ${minimum} to ${maximum}`)
    .max(maximum, `an integer from ${minimum} to ${maximum}`);

export const CheckLogprobsCommandOptionsSchema = z.object({
  model: z.string({ error: "a GGUF file path" }).min(1, "a GGUF file path"),
  lora: z.string().min(1, "a LoRA adapter GGUF file path").optional(),
  tokens: integerFlag(1),
  sequences: integerFlag(1, 256),
  seed: integerFlag(0, MAX_SEED),
  contextSize: integerFlag(16).optional(),
  json: z.boolean().default(false),
  trainer: z.enum(["tfjs", "ggml"], { error: 'tfjs or ggml' }).default("tfjs"),
  constrained: z.boolean().default(false),
  engineFloor: z.boolean().default(true),
  ...DEVICE_FLAG,
});
export type CheckLogprobsCommandOptions = z.infer<typeof CheckLogprobsCommandOptionsSchema>;

/** `selfplay check-logprobs`: samples on the engine, recomputes in tfjs, prints how far apart the logprobs are. */
export async function checkLogprobsCommand(rawOptions: unknown, io: CliIo): Promise<number> {
  const options = parseOptions(CheckLogprobsCommandOptionsSchema, rawOptions);
  const result = await checkLogprobs({
    modelPath: options.model,
    loraPath: options.lora,
    tokens: options.tokens,
    sequences: options.sequences,
    seed: options.seed,
    contextSize: options.contextSize,
    trainer: options.trainer,
    constrained: options.constrained,
    engineFloor: options.engineFloor,
    device: options.device,
  });
  io.stderr(`${describeDevice(result.engineDevice)}\n`);
  if (result.trainerDevice !== null && result.trainerDevice.name !== result.engineDevice.name) io.stderr(`trainer ${describeDevice(result.trainerDevice)}\n`);
  io.stdout(options.json ? `${JSON.stringify(result)}\n` : formatAgreement(result));
  return EXIT.ok;
}

function formatAgreement(result: CheckLogprobsResult): string {
  const exponent = (value: number) => value.toExponential(2);
  return (
    `check-logprobs: ${result.tokens} tokens in ${result.sequences} sequences (positions up to ${result.maxPosition}), ` +
    `max |Δ| ${exponent(result.maxAbsDiff)}, p99 |Δ| ${exponent(result.p99AbsDiff)}, mean |Δ| ${exponent(result.meanAbsDiff)}, mismatch KL (k3) ${exponent(result.mismatchKl)}` +
    (result.constrained.tokens > 0
      ? `; ${result.constrained.tokens} constrained tokens (masks rebuilt) apart: max |Δ| ${exponent(result.constrained.maxAbsDiff)}, p99 |Δ| ${exponent(result.constrained.p99AbsDiff)}`
      : "") +
    (result.engineFloor === null
      ? ""
      : `; engine floor (alone vs in a batch of 16, ${result.engineFloor.tokens} tokens): max |Δ| ${exponent(result.engineFloor.maxAbsDiff)}, p99 |Δ| ${exponent(result.engineFloor.p99AbsDiff)}`) +
    (result.trainer === "tfjs" ? `; tfjs backend ${result.backend}\n` : `; trainer ${result.backend}\n`)
  );
}

export function registerCheckLogprobsCommand(program: Command, { io, setExitCode }: CommandContext): void {
  program
    .command("check-logprobs")
    .description("Sample on the engine in exact mode, recompute every token's logprob with the trainer's policy (tfjs, or ggml with --trainer ggml), and report the differences.")
    .addOption(new Option("--model <file>", "GGUF model (llama or qwen2) to check").makeOptionMandatory())
    .addOption(new Option("--lora <file>", "LoRA adapter GGUF applied on both sides"))
    .addOption(new Option("--tokens <n>", "completion tokens to sample and compare, at least; an integer ≥ 1").default("2000"))
    .addOption(new Option("--sequences <n>", "sequences the engine decodes in parallel, an integer from 1 to 256").default("4"))
    .addOption(new Option("--seed <n>", "seed of prompts and samplers, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--context-size <n>", "context per sequence in tokens (default: the model's, at most 2048)"))
    .addOption(new Option("--trainer <name>", "trainer that recomputes the logprobs: tfjs (the reference) or ggml (the native addon)").default("tfjs"))
    .addOption(new Option("--constrained", "every other request answers under a JSON schema with a logit bias; its tokens are scored under the grammar masks the addon rebuilds and reported apart"))
    .addOption(new Option("--no-engine-floor", "skip the engine's own floor (the first 16 requests re-decoded alone and in one batch of 16)"))
    .addOption(deviceOption())
    .addOption(new Option("--json", "print the result as one JSON object"))
    .action(async (flags: Record<string, unknown>) => {
      setExitCode(await checkLogprobsCommand(flags, io));
    });
}
