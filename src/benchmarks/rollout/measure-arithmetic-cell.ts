import { arithmeticWorkload } from "./arithmetic-workload.js";
import type { DecodeMode } from "./decode-settings.js";
import { compareWithEngines } from "./compare-with-engines.js";
import { decodeRequestsOf, meanLengthsOf } from "./decode-request.js";
import { measureArenaRollouts } from "./measure-arena-rollouts.js";
import type { RolloutCell } from "./rollout-bench-result.js";

export interface ArithmeticCellOptions {
  /** The bundled arithmetic base. */
  modelPath: string;
  threads: number;
  sequences: number;
  mode: DecodeMode;
  /** Proposer episodes a round, each with 4 solver sub-episodes. */
  proposals: number;
  contextPerSequence: number;
  /** Timed rounds of every measurement; the fastest counts. */
  rounds: number;
  /** Build llama-batched-bench if it is not built yet (minutes). */
  buildTools: boolean;
}

/**
 * The rollout-shaped cell: the RL step's own workload, arithmetic proposals
 * each answered by 4 solvers, on the bundled base — short prompts and
 * completions of their natural lengths, many model calls per token. The native
 * loop and node-llama-cpp replay the same requests at the same lengths;
 * llama.cpp decodes `sequences` sequences of the mean prompt and completion length.
 */
export async function measureArithmeticCell(options: ArithmeticCellOptions): Promise<RolloutCell> {
  const { modelPath, sequences, threads, mode, contextPerSequence, rounds } = options;
  const arena = await measureArenaRollouts({
    engine: { modelPath, sequences, threads, mode, contextPerSequence },
    ...arithmeticWorkload(options.proposals, rounds),
  });
  const requests = decodeRequestsOf(arena.steps);
  const { promptTokens, generatedTokens } = meanLengthsOf(requests);
  return compareWithEngines({
    cell: { shape: "arithmetic", preset: "arithmetic-base", threads, sequences, mode, promptTokens, generatedTokens },
    modelPath,
    requests,
    contextPerSequence,
    rounds,
    ours: arena.tokensPerSecond,
    llamaCppShape: { promptTokens: Math.round(promptTokens), generatedTokens: Math.max(1, Math.round(generatedTokens)) },
    buildTools: options.buildTools,
  });
}
