import type { GenerationOutput } from "../../core/inference-client.js";
import { logprobAgreement, type LogprobAgreement } from "./logprob-agreement.js";

type Decoded = Pick<GenerationOutput, "completionTokenIds" | "completionLogprobs">;

/**
 * How two decodes of the same requests agree on logprobs: request by request,
 * over the completion's tokens up to where the two drew different ones (after
 * that they condition on different text and are not comparable).
 */
export function matchedTokenAgreement(first: readonly Decoded[], second: readonly Decoded[]): LogprobAgreement {
  const firstLogprobs: number[] = [];
  const secondLogprobs: number[] = [];
  first.forEach((output, index) => {
    const other = second[index];
    if (other === undefined) return;
    const length = Math.min(output.completionTokenIds.length, other.completionTokenIds.length);
    for (let position = 0; position < length; position++) {
      if (output.completionTokenIds[position] !== other.completionTokenIds[position]) break;
      firstLogprobs.push(output.completionLogprobs[position] as number);
      secondLogprobs.push(other.completionLogprobs[position] as number);
    }
  });
  return logprobAgreement(firstLogprobs, secondLogprobs);
}
