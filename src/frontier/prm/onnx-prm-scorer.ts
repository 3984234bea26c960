import { access } from "node:fs/promises";
import { join } from "node:path";
import type * as ort from "onnxruntime-node";
import { InvalidInputError } from "../../core/errors/index.js";
import { PrmModelError } from "../errors/index.js";
import { createFeaturiser } from "./create-featuriser.js";
import type { Featuriser } from "./featuriser.js";
import { PRM_FILES, type PrmMetadata } from "./prm-metadata.js";
import type { PrmScorer } from "./prm-scorer.js";
import type { PrmState } from "./prm-state.js";
import { readPrmMetadata } from "./read-prm-metadata.js";

type OnnxRuntime = typeof ort;

export interface OnnxPrmScorerOptions {
  /** The featuriser, required when the PRM was trained on embeddings (it holds the model). Default: made from `prm.json`. */
  featuriser?: Featuriser;
  /** onnxruntime intra-op threads. Default 1: the network is tiny, and training shares the cores. */
  threads?: number;
  /** Rows per onnxruntime call. Default 4096. */
  batchSize?: number;
}

/**
 * A trained PRM served by onnxruntime-node (its bundled CPU runtime): reads
 * `prm.json` for the featuriser and graph names, and runs `prm.onnx`.
 */
export class OnnxPrmScorer implements PrmScorer {
  private constructor(
    readonly metadata: PrmMetadata,
    readonly featuriser: Featuriser,
    /** The `prm.onnx` file being served. */
    readonly modelPath: string,
    private readonly runtime: OnnxRuntime,
    private readonly session: ort.InferenceSession,
    private readonly batchSize: number,
  ) {}

  /** Loads the PRM `selfplay prm train --out DIRECTORY` wrote. */
  static async load(directory: string, options: OnnxPrmScorerOptions = {}): Promise<OnnxPrmScorer> {
    const metadata = await readPrmMetadata(directory);
    const featuriser = createFeaturiser(metadata.featuriser, options.featuriser, join(directory, PRM_FILES.metadata));
    const modelPath = join(directory, PRM_FILES.model);
    await access(modelPath).catch((error: unknown) => {
      throw new PrmModelError(modelPath, "is missing; train the PRM again or pass the directory that holds it", { cause: error });
    });
    // Loaded here, not at import: importing selfplay should not load onnxruntime's native library.
    // An optional peer dependency: its install script downloads CUDA libraries, so a project installs it when it scores ONNX PRMs.
    const runtime = await import("onnxruntime-node").catch((error: unknown) => {
      throw new PrmModelError(modelPath, "needs onnxruntime-node, an optional peer dependency: ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node", { cause: error });
    });
    let session: ort.InferenceSession;
    try {
      session = await runtime.InferenceSession.create(modelPath, { intraOpNumThreads: options.threads ?? 1, interOpNumThreads: 1 });
    } catch (error) {
      throw new PrmModelError(modelPath, `onnxruntime cannot load it (${(error as Error).message}); train the PRM again`, { cause: error });
    }
    return new OnnxPrmScorer(metadata, featuriser, modelPath, runtime, session, options.batchSize ?? 4096);
  }

  async score(states: readonly PrmState[]): Promise<number[]> {
    return this.scoreFeatures(await this.featuriser.featurise(states));
  }

  /** Probabilities of already-featurised states (each `inputDimensions` wide). */
  async scoreFeatures(features: readonly Float32Array[]): Promise<number[]> {
    const width = this.metadata.network.inputDimensions;
    const scores: number[] = [];
    for (let start = 0; start < features.length; start += this.batchSize) {
      const rows = features.slice(start, start + this.batchSize);
      const data = new Float32Array(rows.length * width);
      rows.forEach((row, index) => {
        if (row.length !== width) throw new InvalidInputError(`features.${start + index}`, `a vector of ${width} numbers`, row.length);
        data.set(row, index * width);
      });
      const input = new this.runtime.Tensor("float32", data, [rows.length, width]);
      const outputs = await this.session.run({ [this.metadata.onnx.input]: input });
      const output = outputs[this.metadata.onnx.output];
      if (!output) throw new PrmModelError(this.modelPath, `has no output "${this.metadata.onnx.output}"; train the PRM again`);
      for (const value of output.data as Float32Array) scores.push(value);
      input.dispose();
      output.dispose();
    }
    return scores;
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}
