import type { RandomStream } from "../../core/random/random-stream.js";
import { clusterName, clusterOf, type ArithmeticCluster } from "./arithmetic-cluster.js";
import { isHeldOut, parseHeldOutRule } from "../../core/held-out/held-out-rule.js";

/** One problem of the task, as written (`23+45`, `7-12`), with its true answer. */
export interface ArithmeticTaskProblem {
  text: string;
  answer: number;
  cluster: string;
}

/**
 * Which problems are held out from pretraining and training, by the problem
 * as written: FNV-1a 32 ≡ 0 (mod 10), about a tenth of all problems;
 * evaluation draws from these. The modulus is spelt out, not left to the
 * rule's default: the bundled base was pretrained on the rest.
 */
export const ARITHMETIC_HELD_OUT = parseHeldOutRule({ rule: "hashed", modulus: 10 });

let allProblems: readonly ArithmeticTaskProblem[] | undefined;

/** Every problem of the task: additions and subtractions of integers 0–99 (20,000 in all). */
export function arithmeticProblems(): readonly ArithmeticTaskProblem[] {
  if (!allProblems) {
    const problems: ArithmeticTaskProblem[] = [];
    for (const operation of ["add", "subtract"] as const) {
      for (let left = 0; left < 100; left++) {
        for (let right = 0; right < 100; right++) {
          const text = `${left}${operation === "add" ? "+" : "-"}${right}`;
          problems.push({ text, answer: operation === "add" ? left + right : left - right, cluster: clusterName(clusterOf(left, operation, right)) });
        }
      }
    }
    allProblems = problems;
  }
  return allProblems;
}

/** The problems of one split: `held-out` for evaluation, `train` for everything else. */
export function problemsOfSplit(split: "train" | "held-out"): ArithmeticTaskProblem[] {
  return arithmeticProblems().filter((problem) => isHeldOut(problem.text, ARITHMETIC_HELD_OUT) === (split === "held-out"));
}

/** Names of the clusters that have at least one problem, sorted. */
export function clusterNames(): string[] {
  return [...new Set(arithmeticProblems().map((problem) => problem.cluster))].sort();
}

/** A uniformly drawn training problem of `cluster` (never a held-out one). */
export function sampleProblem(cluster: ArithmeticCluster | string, random: RandomStream): ArithmeticTaskProblem {
  const name = typeof cluster === "string" ? cluster : clusterName(cluster);
  const candidates = trainingProblemsByCluster().get(name);
  if (!candidates || candidates.length === 0) throw new Error(`no training problem in cluster "${name}"`);
  return candidates[Math.floor(random.next() * candidates.length)] as ArithmeticTaskProblem;
}

let byCluster: Map<string, ArithmeticTaskProblem[]> | undefined;

function trainingProblemsByCluster(): Map<string, ArithmeticTaskProblem[]> {
  if (!byCluster) {
    byCluster = new Map();
    for (const problem of problemsOfSplit("train")) {
      const list = byCluster.get(problem.cluster) ?? [];
      list.push(problem);
      byCluster.set(problem.cluster, list);
    }
  }
  return byCluster;
}
