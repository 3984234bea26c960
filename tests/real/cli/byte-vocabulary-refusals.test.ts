import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/program.js";
import { ByteVocabularyRequiredError } from "../../../src/inference/errors/index.js";
import { describeVocabulary } from "../../../src/inference/model-files/describe-vocabulary.js";
import { writeRunCheckpoint } from "../../helpers/run-checkpoint.js";
import { scriptedStepResults } from "../../training/tfjs/scripted-step-results.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../real-model.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe.skipIf(!realModelAvailable)(`byte-token commands refuse SmolLM2's BPE vocabulary${REAL_MODEL_SKIP_REASON}`, () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-real-byte-vocabulary-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("reads SmolLM2's 49,152 tokens as not the byte vocabulary", async () => {
    expect(await describeVocabulary(SMOLLM2_PATH)).toEqual({ size: 49_152, byteVocabulary: false });
  });

  it("pretrain --from SmolLM2: ByteVocabularyRequiredError (exit 2), saying what works instead, and nothing written", async () => {
    const out = join(folder, "pretrained", "model.gguf");
    const { code, stdout, stderr } = await runCli(["pretrain", "--from", SMOLLM2_PATH, "--out", out, "--steps", "1"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `error: --from: got "${SMOLLM2_PATH}: a 49152-token vocabulary that is not the byte vocabulary of project-made models (one token a byte)"; ` +
        "expected a model of the byte vocabulary (one pretrain wrote, or leave --from out for a random --preset); the arithmetic corpus is byte tokens. " +
        "To train a model of its own vocabulary, use RL on it: selfplay train --model FILE\n",
    );
    expect(existsSync(join(folder, "pretrained"))).toBe(false);
  });

  it("prm label without --model on a run of SmolLM2: ByteVocabularyRequiredError (exit 2) saying to pass --model, no labels written", async () => {
    const run = join(folder, "run");
    await mkdir(run);
    const step = await scriptedStepResults([{ cluster: "add-1x1-no-carry", problem: "3+4", solvers: ["7", "1", "7", "7"] }]);
    await writeFile(join(run, "rollouts.jsonl"), step.map((result) => `${JSON.stringify(result)}\n`).join(""));
    await writeRunCheckpoint(run, { name: "arithmetic" }, {}, SMOLLM2_PATH);
    const out = join(folder, "labels.jsonl");
    const argv = ["prm", "label", "--trajectories", join(run, "rollouts.jsonl"), "--out", out];
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: --model: got "${SMOLLM2_PATH}: a 49152-token vocabulary that is not the byte vocabulary of project-made models (one token a byte)"; ` +
        `expected the model that wrote ${join(run, "rollouts.jsonl")}, for its tokenizer: pass --model ${SMOLLM2_PATH} (or the run's final policy)\n`,
    );
    expect(existsSync(out)).toBe(false);
    const { prmLabelCommand } = await import("../../../src/cli/commands/prm-command.js");
    const io = { stdout: () => undefined, stderr: () => undefined, isTerminal: false };
    await expect(prmLabelCommand({ trajectories: join(run, "rollouts.jsonl"), out, rollouts: "0", chunk: "1", seed: "0", sequences: "4" }, { io, now: () => new Date(0), setExitCode: () => undefined })).rejects.toBeInstanceOf(ByteVocabularyRequiredError);
  });
});
