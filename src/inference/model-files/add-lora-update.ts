import { InvalidInputError } from "../../core/errors/index.js";

export interface LoraUpdateShape {
  /** Columns of W and of A. */
  inputLength: number;
  /** Rows of W and of B. */
  outputLength: number;
  /** Rows of A and columns of B. */
  rank: number;
}

/**
 * W ← W + factor · B · A, in place: `weight` row-major `[out, in]`, `a`
 * row-major `[rank, in]`, `b` row-major `[out, rank]`. Each row is summed in
 * float64 and rounded to float32 once. For an adapter, factor is
 * scale · alpha / rank (`loraFactor`).
 */
export function addLoraUpdate(weight: Float32Array, a: Float32Array, b: Float32Array, shape: LoraUpdateShape, factor: number): void {
  const { inputLength, outputLength, rank } = shape;
  const check = (field: string, values: Float32Array, expected: number, layout: string): void => {
    if (values.length !== expected) throw new InvalidInputError(`${field}.length`, `${expected} (row-major ${layout})`, values.length);
  };
  check("weight", weight, outputLength * inputLength, `[out ${outputLength}, in ${inputLength}]`);
  check("a", a, rank * inputLength, `[rank ${rank}, in ${inputLength}]`);
  check("b", b, outputLength * rank, `[out ${outputLength}, rank ${rank}]`);
  const row = new Float64Array(inputLength);
  for (let output = 0; output < outputLength; output++) {
    row.fill(0);
    for (let inner = 0; inner < rank; inner++) {
      const coefficient = (b[output * rank + inner] as number) * factor;
      if (coefficient === 0) continue;
      const aOffset = inner * inputLength;
      for (let input = 0; input < inputLength; input++) row[input] = (row[input] as number) + coefficient * (a[aOffset + input] as number);
    }
    const wOffset = output * inputLength;
    for (let input = 0; input < inputLength; input++) weight[wOffset + input] = (weight[wOffset + input] as number) + (row[input] as number);
  }
}

/**
 * The factor llama.cpp's `get_scale` multiplies B·A·x by: scale · alpha / rank,
 * computed in float32 left to right as it does.
 */
export function loraFactor(scale: number, alpha: number, rank: number): number {
  return Math.fround(Math.fround(Math.fround(scale) * Math.fround(alpha)) / rank);
}
