import type { ScriptedRule } from "../../inference/scripted-inference-client.js";
import { parseArithmeticProblem } from "../arithmetic/arithmetic-problem.js";

/**
 * Scripted players for a dry run of proposer-solver: the proposer writes a
 * problem of the requested family (one reply in ten is malformed); the solver
 * is right more often on small numbers than on large ones, so pass rates vary.
 */
export const scriptedProposerSolverRules: readonly ScriptedRule[] = [
  {
    when: /^system: You write arithmetic problems/,
    reply: (request, random) => {
      if (random.next() < 0.1) return "How about a word problem?";
      const topic = request.messages.at(-1)?.content ?? "";
      const limit = topic.includes("two-digit") ? 100 : 10;
      const operator = topic.includes("subtraction") ? "-" : "+";
      return `${random.integer(limit)}${operator}${random.integer(limit)}`;
    },
  },
  {
    when: /^system: Solve the arithmetic problem/,
    reply: (request, random) => {
      const problem = parseArithmeticProblem((request.messages.at(-1)?.content ?? "").replace(/=$/, ""));
      if (!problem) return "?";
      const skill = problem.text.length <= 3 ? 0.9 : 0.45;
      return String(random.next() < skill ? problem.answer : problem.answer + 1 + random.integer(9));
    },
  },
];
