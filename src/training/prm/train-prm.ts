import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../core/errors/index.js";
import { isHeldOut } from "../../core/held-out/held-out-rule.js";
import { splitHeldOut } from "../../core/held-out/split-held-out.js";
import { parseInput } from "../../core/parse-input.js";
import { deriveStream } from "../../core/random/random-stream.js";
import { prmMetrics } from "../../frontier/metrics/prm-metrics.js";
import type { Featuriser } from "../../frontier/prm/featuriser.js";
import type { PrmMetadata, PrmNetworkShape } from "../../frontier/prm/prm-metadata.js";
import type { PrmExample } from "../../frontier/prm/prm-state.js";
import { AdamW } from "../tfjs/optimizer/adamw.js";
import { binaryCrossEntropyWithLogits } from "./binary-cross-entropy.js";
import { PrmNetwork, stackRows } from "./prm-network.js";
import { PRM_ONNX_GRAPH } from "./prm-onnx-graph.js";
import { PrmTrainingConfigurationSchema, type PrmTrainingConfigurationInput } from "./prm-training-configuration.js";
import { prmHeldOutRule } from "./prm-held-out-rule.js";
import { initialPrmWeights, type PrmWeights } from "./prm-weights.js";

export interface TrainPrmOptions {
  featuriser: Featuriser;
  configuration?: PrmTrainingConfigurationInput;
  /** A trained PRM to fine-tune instead of fresh weights; its shape wins over the configuration's. */
  initial?: { shape: PrmNetworkShape; weights: PrmWeights; /** Where it came from, recorded in the metadata. */ from: string };
  /** Called after each epoch with its mean training loss. */
  onEpochEnd?: (event: { epoch: number; loss: number }) => void;
}

export interface TrainedPrm {
  /** The trained network (the caller disposes it). */
  network: PrmNetwork;
  /** `prm.json`'s content, with the held-out metrics. */
  metadata: PrmMetadata;
  /** The network's probabilities on the held-out split, in the examples' order. */
  heldOutProbabilities: number[];
}

/**
 * Trains (or fine-tunes) the PRM on labelled states: binary cross-entropy on
 * the Monte-Carlo labels, AdamW, minibatches in an order drawn from the seed;
 * then scores the held-out split (tasks held out by hash) against the
 * per-cluster prior. Runs on whatever tfjs backend is active.
 */
export async function trainPrm(examples: readonly PrmExample[], options: TrainPrmOptions): Promise<TrainedPrm> {
  const configuration = parseInput(PrmTrainingConfigurationSchema, options.configuration ?? {});
  const { featuriser, initial } = options;
  if (initial && initial.shape.inputDimensions !== featuriser.dimensions) {
    throw new InvalidInputError("featuriser.dimensions", `${initial.shape.inputDimensions}, the input width of the PRM being fine-tuned`, featuriser.dimensions);
  }

  // Split and featurise.
  const heldOutRule = prmHeldOutRule(configuration.heldOutFraction);
  const { training, heldOut } = splitHeldOut(examples, (example) => isHeldOut(example.task, heldOutRule));
  if (training.length === 0) {
    throw new InvalidInputError("examples", `at least one state outside the held-out split (${heldOut.length} held out); add trajectories or lower the held-out fraction`, examples.length);
  }
  const trainingFeatures = await featuriser.featurise(training);
  const heldOutFeatures = await featuriser.featurise(heldOut);

  // Network and optimiser.
  const shape: PrmNetworkShape = initial?.shape ?? {
    inputDimensions: featuriser.dimensions,
    hiddenDimensions: configuration.hiddenDimensions,
    activation: configuration.activation,
  };
  const network = new PrmNetwork(shape, initial?.weights ?? initialPrmWeights(shape, deriveStream(configuration.seed, "prm", "initial-weights")));
  const variables = Object.fromEntries(Object.values(network.variables).map((variable) => [variable.name, variable]));
  const optimizer = new AdamW({ learningRate: configuration.learningRate, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: configuration.weightDecay });

  let finalTrainingLoss: number | null = null;
  try {
    for (let epoch = 0; epoch < configuration.epochs; epoch++) {
      // Shuffle: epoch e's order comes from its own stream, so it does not depend on earlier epochs.
      const order = shuffledIndices(training.length, deriveStream(configuration.seed, "prm", "epoch", String(epoch)));
      let lossSum = 0;
      for (let start = 0; start < order.length; start += configuration.batchSize) {
        const batch = order.slice(start, start + configuration.batchSize);
        // Update: one AdamW step on the batch's mean cross-entropy.
        const features = stackRows(batch.map((index) => trainingFeatures[index] as Float32Array), shape.inputDimensions);
        const labels = tf.tensor1d(batch.map((index) => (training[index] as PrmExample).label), "float32");
        const { value, grads } = tf.variableGrads(() => binaryCrossEntropyWithLogits(network.logits(features), labels), Object.values(network.variables));
        optimizer.applyGradients(variables, grads);
        lossSum += ((await value.data())[0] as number) * batch.length;
        tf.dispose([features, labels, value, ...Object.values(grads)]);
      }
      finalTrainingLoss = lossSum / training.length;
      options.onEpochEnd?.({ epoch, loss: finalTrainingLoss });
    }
  } catch (error) {
    network.dispose();
    throw error;
  } finally {
    optimizer.dispose();
  }

  // Evaluate on the held-out split, against the per-cluster prior.
  const heldOutProbabilities = network.probabilities(heldOutFeatures);
  const metadata: PrmMetadata = {
    format: "selfplay-prm",
    version: 1,
    featuriser: featuriser.settings,
    network: shape,
    onnx: { input: PRM_ONNX_GRAPH.input, output: PRM_ONNX_GRAPH.output, opset: PRM_ONNX_GRAPH.opset },
    training: {
      examples: examples.length,
      trainExamples: training.length,
      heldOutExamples: heldOut.length,
      heldOutFraction: configuration.heldOutFraction,
      epochs: configuration.epochs,
      batchSize: configuration.batchSize,
      learningRate: configuration.learningRate,
      weightDecay: configuration.weightDecay,
      seed: configuration.seed,
      finalTrainingLoss,
      from: initial?.from ?? null,
      heldOut: prmMetrics(heldOutProbabilities, heldOut, training),
    },
  };
  return { network, metadata, heldOutProbabilities };
}

/** 0..count−1 in a Fisher–Yates order drawn from `random`. */
function shuffledIndices(count: number, random: { integer(maxExclusive: number): number }): number[] {
  const indices = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = random.integer(index + 1);
    [indices[index], indices[other]] = [indices[other] as number, indices[index] as number];
  }
  return indices;
}
