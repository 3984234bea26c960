import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/program.js";
import { CreateRandomLoraAdapterOptionsSchema } from "../../../src/inference/model-files/create-random-lora-adapter.js";
import { DEFAULT_LORA_ALPHA, DEFAULT_LORA_RANK, DEFAULT_LORA_TARGETS, LoraTargetSchema } from "../../../src/inference/model-files/lora-defaults.js";
import { TrainingConfigurationSchema } from "../../../src/training/loop/training-configuration.js";
import { TrainableAdapterOptionsSchema } from "../../../src/training/tfjs/lora/create-trainable-adapter.js";
import { TrainerLoraOptionsSchema, TrainerOptionsSchema } from "../../../src/training/trainer/trainer-options.js";

const SHARED = { rank: DEFAULT_LORA_RANK, alpha: DEFAULT_LORA_ALPHA, targets: [...DEFAULT_LORA_TARGETS] };

describe("the shared LoRA defaults", () => {
  it("are every trainer's: the ggml and tfjs trainers' options, the training configuration and createTrainableAdapter parse to them", () => {
    expect(TrainerLoraOptionsSchema.parse({})).toEqual(SHARED);
    expect(TrainerOptionsSchema.parse({ modelPath: "base.gguf", syncDirectory: "policies" }).lora).toEqual(SHARED);
    expect(TrainingConfigurationSchema.parse({}).lora).toEqual(SHARED);
    const { rank, alpha, targets } = TrainableAdapterOptionsSchema.parse({ modelPath: "base.gguf", path: "adapter.gguf" });
    expect({ rank, alpha, targets }).toEqual(SHARED);
  });

  it("give the random adapter maker its targets, every one a LoraTarget", () => {
    expect(CreateRandomLoraAdapterOptionsSchema.parse({ baseModelPath: "base.gguf", path: "adapter.gguf", rank: 2, seed: 0 }).targets).toEqual([...DEFAULT_LORA_TARGETS]);
    expect(LoraTargetSchema.array().parse(DEFAULT_LORA_TARGETS)).toEqual([...DEFAULT_LORA_TARGETS]);
  });

  it("are the ones selfplay train --help names", async () => {
    let help = "";
    const code = await main(["train", "--help"], { io: { stdout: (text) => void (help += text), stderr: () => undefined, isTerminal: false } });
    expect(code).toBe(0);
    // Commander wraps the descriptions to the terminal's width: any run of white space may be a line break.
    expect(help).toMatch(new RegExp(`--lora-rank <n>\\s+LoRA rank when training an adapter\\s+\\(default\\s+${DEFAULT_LORA_RANK}\\)`));
    expect(help).toMatch(new RegExp(`--lora-alpha <x>\\s+LoRA alpha\\s+\\(default\\s+${DEFAULT_LORA_ALPHA}\\)`));
    expect(help).toMatch(new RegExp(`--lora-targets <list>\\s+comma-separated matrices to adapt\\s+\\(default\\s+${DEFAULT_LORA_TARGETS.join(",")}\\)`));
  });
});
