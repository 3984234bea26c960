import { InvalidInputError } from "../../core/errors/index.js";
import type { RandomStream } from "../../core/random/random-stream.js";
import type { PrmNetworkShape } from "../../frontier/prm/prm-metadata.js";

/**
 * The PRM's parameters, row-major float32: `hidden = activation(features ·
 * firstWeights + firstBias)`, `probability = sigmoid(hidden · secondWeights + secondBias)`.
 */
export interface PrmWeights {
  /** `[inputDimensions, hiddenDimensions]`. */
  firstWeights: Float32Array;
  /** `[hiddenDimensions]`. */
  firstBias: Float32Array;
  /** `[hiddenDimensions, 1]`. */
  secondWeights: Float32Array;
  /** `[1]`. */
  secondBias: Float32Array;
}

/** Each tensor's shape for a network shape, in the order of PrmWeights. */
export function prmWeightShapes(shape: PrmNetworkShape): Record<keyof PrmWeights, [number] | [number, number]> {
  const { inputDimensions, hiddenDimensions } = shape;
  return {
    firstWeights: [inputDimensions, hiddenDimensions],
    firstBias: [hiddenDimensions],
    secondWeights: [hiddenDimensions, 1],
    secondBias: [1],
  };
}

/** Throws unless every tensor has the size the shape implies. */
export function checkPrmWeights(weights: PrmWeights, shape: PrmNetworkShape): void {
  for (const [name, dims] of Object.entries(prmWeightShapes(shape)) as [keyof PrmWeights, number[]][]) {
    const expected = dims.reduce((product, size) => product * size, 1);
    if (weights[name].length !== expected) throw new InvalidInputError(`weights.${name}`, `${expected} values (shape [${dims.join(", ")}])`, weights[name].length);
  }
}

/**
 * Fresh weights: Glorot-uniform matrices (±√(6 / (fan in + fan out))) and zero
 * biases, drawn from `random` so a seed reproduces them.
 */
export function initialPrmWeights(shape: PrmNetworkShape, random: RandomStream): PrmWeights {
  const glorot = (rows: number, columns: number) => {
    const limit = Math.sqrt(6 / (rows + columns));
    const values = new Float32Array(rows * columns);
    for (let index = 0; index < values.length; index++) values[index] = (2 * random.next() - 1) * limit;
    return values;
  };
  return {
    firstWeights: glorot(shape.inputDimensions, shape.hiddenDimensions),
    firstBias: new Float32Array(shape.hiddenDimensions),
    secondWeights: glorot(shape.hiddenDimensions, 1),
    secondBias: new Float32Array(1),
  };
}
