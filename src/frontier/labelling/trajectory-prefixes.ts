import { InvalidInputError } from "../../core/errors/index.js";
import type { Step } from "../../core/schemas/step.js";

/** A partial solution: the role's completions up to `tokens` tokens into its Step `stepIndex`. */
export interface TrajectoryPrefix {
  stepIndex: number;
  /** Completion tokens of that Step already written. */
  tokens: number;
  /** The partial solution as text: earlier Steps' completions, one a line, then this Step's first `tokens` tokens. */
  text: string;
  /** The whole trajectory: its label is the outcome itself. */
  terminal: boolean;
}

export interface TrajectoryPrefixesOptions {
  /** Completion tokens per chunk: a prefix ends every `chunk` tokens and at the end of every Step. */
  chunk: number;
  /** The text of token ids, special tokens left out. */
  detokenize: (tokenIds: readonly number[]) => string;
}

/**
 * The partial solutions of a trajectory, shortest first: the empty one, then
 * one every `chunk` completion tokens and at the end of each Step; the last is
 * the whole trajectory. A prefix that already reads as the next one (a
 * trailing end-of-generation token adds no text) is left out, the later one
 * kept, so one text never gets two labels from one trajectory.
 */
export function trajectoryPrefixes(steps: readonly Step[], options: TrajectoryPrefixesOptions): TrajectoryPrefix[] {
  if (!Number.isInteger(options.chunk) || options.chunk < 1) throw new InvalidInputError("chunk", "an integer ≥ 1 (completion tokens per prefix step)", options.chunk);
  const candidates: TrajectoryPrefix[] = [];
  const done: string[] = [];
  steps.forEach((step, stepIndex) => {
    const tokens = step.completionTokenIds;
    const last = stepIndex === steps.length - 1;
    // A later Step starts where the previous one ended: that prefix is already there.
    for (let count = stepIndex === 0 ? 0 : options.chunk; count < tokens.length; count += options.chunk) {
      const text = [...done, options.detokenize(tokens.slice(0, count))].join("\n");
      candidates.push({ stepIndex, tokens: count, text, terminal: false });
    }
    const completion = step.completion.map((message) => message.content).join("");
    done.push(completion);
    candidates.push({ stepIndex, tokens: tokens.length, text: done.join("\n"), terminal: last });
  });
  return candidates.filter((prefix, index) => candidates[index + 1]?.text !== prefix.text);
}
