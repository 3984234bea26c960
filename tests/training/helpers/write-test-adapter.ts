import { deriveStream } from "../../../src/core/random/random-stream.js";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { writeLoraAdapter } from "../../../src/inference/model-files/write-lora-adapter.js";

export interface TestAdapterOptions {
  path: string;
  modelPath: string;
  /** Base matrices to adapt, e.g. `blk.0.attn_q.weight`. */
  targets: readonly string[];
  rank: number;
  alpha: number;
  seed: number;
  /** The factors' standard deviation; default 0.05. */
  sigma?: number;
}

/** Writes a LoRA adapter (with the project's writer) whose A and B are uniform in ±√3σ (σ 0.05 unless given), B not zero. */
export async function writeTestAdapter(options: TestAdapterOptions): Promise<void> {
  const sigma = options.sigma ?? 0.05;
  const model = await GgufReader.open(options.modelPath);
  const tensors: Record<string, { a: Float32Array; b: Float32Array }> = {};
  for (const target of options.targets) {
    const [inputs, outputs] = model.tensor(target).dims as [number, number];
    const stream = deriveStream(options.seed, "test-adapter", target);
    const values = (count: number) => Float32Array.from({ length: count }, () => (stream.next() * 2 - 1) * Math.sqrt(3) * sigma);
    tensors[target] = { a: values(options.rank * inputs), b: values(outputs * options.rank) };
  }
  await model.close();
  await writeLoraAdapter(options.path, { base: options.modelPath, alpha: options.alpha, rank: options.rank, tensors });
}
