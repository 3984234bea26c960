import { Option, type Command } from "commander";
import { z } from "zod";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { ensureDefaultModel } from "../../inference/model-files/default-model.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag, numberFlag } from "../flag-schemas.js";
import { announceDevice, DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { parseOptions } from "../parse-options.js";

export const GenerateCommandOptionsSchema = z.object({
  model: z.string().min(1, "a GGUF file path").optional(),
  lora: z.string().min(1, "a LoRA adapter GGUF file path").optional(),
  prompt: z.string({ error: "the text to complete (--prompt TEXT)" }),
  temperature: numberFlag(0, 100),
  seed: integerFlag(0, MAX_SEED),
  maxTokens: integerFlag(1, 65_536),
  json: z.boolean().default(false),
  ...DEVICE_FLAG,
});

/** `selfplay generate`: one completion on the real engine, with every token's id and logprob. */
export async function generateCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(GenerateCommandOptionsSchema, rawOptions);
  const modelPath = options.model ?? (await ensureDefaultModel());
  const client = await LlamaInferenceClient.create({ modelPath, sequences: 1, device: options.device, ...(options.lora && { loraPath: options.lora }) });
  announceDevice(io, client);
  try {
    const [output] = await client.generate([
      {
        messages: [{ role: "user", content: options.prompt }],
        sampler: { ...DEFAULT_SAMPLER, temperature: options.temperature, seed: options.seed, maxTokens: options.maxTokens },
        constraint: null,
      },
    ]);
    if (!output) throw new Error("the engine returned no output");
    const texts = client.tokenTexts(output.completionTokenIds);
    const tokens = Array.from(output.completionTokenIds, (id, index) => ({ id, text: texts[index] as string, logprob: output.completionLogprobs[index] as number }));
    if (options.json) {
      io.stdout(`${JSON.stringify({ text: output.text, tokens })}\n`);
    } else {
      const total = tokens.reduce((sum, token) => sum + token.logprob, 0);
      io.stdout(`${output.text}\n`);
      io.stderr(`${tokens.length} tokens, finish: ${output.finishReason}, total logprob ${total.toFixed(3)} (model ${modelPath})\n`);
    }
    return EXIT.ok;
  } finally {
    await client.dispose();
  }
}

export function registerGenerateCommand(program: Command, context: CommandContext): void {
  program
    .command("generate")
    .description("Complete one prompt on the real engine and print its tokens with their ids and logprobs.")
    .addOption(new Option("--model <file>", "GGUF model (default: the bundled default model, created on first use)"))
    .addOption(deviceOption())
    .addOption(new Option("--lora <file>", "LoRA adapter GGUF to apply over the model"))
    .addOption(new Option("--prompt <text>", "the user message to answer"))
    .addOption(new Option("--temperature <t>", "sampling temperature, a number from 0 (greedy) to 100").default("1"))
    .addOption(new Option("--seed <n>", "sampling seed, an integer from 0 to 4294967295").default("0"))
    .addOption(new Option("--max-tokens <n>", "most tokens to generate, an integer from 1 to 65536").default("64"))
    .addOption(new Option("--json", "print {text, tokens: [{id, text, logprob}]}"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await generateCommand(flags, context));
    });
}
