// Writes a screened chat task's rows as JSONL ({question, answer, cluster, split}) for `--env dataset --data FILE`,
// and beside it, with --config FILE, a training configuration: the dataset environment's options that ask it as the
// screen did (the worked examples, the tolerant extractor, the `Answer:` form, the held-out split column, the sampling
// temperature and the token budget the screen chose: 48 for word-problems; 8 questions × 8 answers a step, 300
// held-out rows) and the learning runs' settings (4 steps, evaluated at the start and the end, AdamW at 2e-4 on the
// default LoRA), which RESULTS measured in under 30 minutes on 2 cores.
//
//   npm run build && node dist/benchmarks/chat-tasks/write-chat-task-data.js --task word-problems --out FILE [--config FILE] [--max-tokens 48] [--temperature 0.7]
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { integerFlag } from "../integer-flag.js";
import { chatTaskCandidates } from "./chat-task-candidates.js";

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const names = chatTaskCandidates().map((candidate) => candidate.name);
  const candidate = chatTaskCandidates().find((entry) => entry.name === flag("--task"));
  if (candidate === undefined) throw new InvalidInputError("--task", `one of ${names.join(", ")}`, flag("--task"));
  const out = flag("--out");
  if (out === undefined) throw new InvalidInputError("--out", "the JSONL file to write (--out FILE)");
  writeFileSync(out, candidate.rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
  const config = flag("--config");
  if (config !== undefined) {
    const temperature = Number(flag("--temperature") ?? 0.7);
    if (!(temperature > 0)) throw new InvalidInputError("--temperature", "a sampling temperature > 0", flag("--temperature"));
    const environment = {
      prompt: "question",
      cluster: "cluster",
      heldOut: { column: "split", value: "test" },
      fewShot: candidate.fewShot,
      extractor: "tolerant",
      format: { extractor: "answer-line" },
      temperature,
      maxTokens: integerFlag("--max-tokens", 48),
      // Two worked examples and a question are about 150 tokens in SmolLM2's template: the file's 8,192 positions a
      // sequence would cost gigabytes for nothing.
      contextSize: 512,
      prompts: 8,
      groupSize: 8,
      evaluateItems: 300,
    };
    const training = { steps: 4, evaluateEvery: 0, trainer: { optimizer: { learningRate: 2e-4 } }, environment };
    writeFileSync(config, `${JSON.stringify(training, null, 2)}\n`);
  }
  process.stdout.write(`wrote ${candidate.rows.length} rows of ${candidate.name} to ${out}${config === undefined ? "" : ` and its training configuration to ${config}`}\n`);
}
