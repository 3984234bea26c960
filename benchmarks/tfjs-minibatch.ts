// tfjs minibatch: the seconds of one forward + backward pass (`tf.variableGrads` over `completionLogprobs`) and of
// the forward alone on a minibatch of arithmetic pretraining examples, on the bundled base with tfjs-wasm — the
// cost that length buckets and the batched attention of short rows cut (RESULTS.md, "tfjs training throughput").
// Each round times both, in wall-clock and in this process's CPU seconds (user + system: tfjs-wasm computes on this
// thread, so on a shared machine the CPU figure is the one to compare); the first round is a warm-up.
//
//   npm run build && node dist/benchmarks/tfjs-minibatch.js [--examples N] [--rounds N]   (prints JSON)
import * as tf from "@tensorflow/tfjs";
import { pathToFileURL } from "node:url";
import { RandomStream } from "../src/core/random/random-stream.js";
import { bundledArithmeticBase } from "../src/inference/model-files/bundled-models.js";
import { arithmeticExample } from "../src/tasks/arithmetic/arithmetic-corpus.js";
import { Policy } from "../src/training/tfjs/policy/policy.js";
import { integerFlag } from "./integer-flag.js";

export interface TfjsMinibatchResult {
  benchmark: "tfjs-minibatch";
  backend: string;
  examples: number;
  /** The shortest and longest example, prompt and completion, in tokens. */
  tokens: { shortest: number; longest: number };
  /** Wall-clock and CPU seconds of each timed round's forward + backward pass, in order. */
  forwardBackward: Timing[];
  /** The same of each timed round's forward pass alone (no gradients). */
  forward: Timing[];
}

export interface Timing {
  seconds: number;
  cpuSeconds: number;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

function timed(work: () => void): Timing {
  const started = performance.now();
  const cpu = process.cpuUsage();
  work();
  const used = process.cpuUsage(cpu);
  return { seconds: round3((performance.now() - started) / 1000), cpuSeconds: round3((used.user + used.system) / 1e6) };
}

export async function measureTfjsMinibatch(examples: number, rounds: number): Promise<TfjsMinibatchResult> {
  const policy = await Policy.load({ modelPath: bundledArithmeticBase(), backends: ["wasm"] });
  try {
    const random = new RandomStream("tfjs-minibatch");
    const batch = Array.from({ length: examples }, () => arithmeticExample(random));
    const lengths = batch.map((example) => example.promptTokenIds.length + example.completionTokenIds.length);
    const forwardBackward: Timing[] = [];
    const forward: Timing[] = [];
    for (let index = 0; index <= rounds; index++) {
      const pass = timed(() => {
        const { value, grads } = tf.variableGrads(() => tf.sum(policy.completionLogprobs(batch)) as tf.Scalar, policy.trainableVariables);
        // Reading the values back waits for every kernel of the pass.
        value.dataSync();
        Object.values(grads).forEach((gradient) => gradient.dataSync());
        tf.dispose([value, ...Object.values(grads)]);
      });
      const forwardPass = timed(() => tf.tidy(() => void policy.completionLogprobs(batch, { withGradients: false }).dataSync()));
      if (index === 0) continue;
      forwardBackward.push(pass);
      forward.push(forwardPass);
    }
    return { benchmark: "tfjs-minibatch", backend: policy.backend.backend, examples, tokens: { shortest: Math.min(...lengths), longest: Math.max(...lengths) }, forwardBackward, forward };
  } finally {
    policy.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await measureTfjsMinibatch(integerFlag("--examples", 64), integerFlag("--rounds", 5))));
}
