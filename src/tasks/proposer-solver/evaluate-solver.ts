import type { InferenceClient } from "../../core/inference-client.js";
import type { JsonObject } from "../../core/json.js";
import type { EnvironmentEvaluateOptions, EnvironmentEvaluation } from "../../environments/environment.js";
import { heldOutExamples } from "../arithmetic/held-out-examples.js";
import { evaluateDataset } from "../dataset/evaluate-dataset.js";
import type { SolverEpisode } from "./solver-episode.js";

/**
 * The solver's held-out accuracy: `problems` problems of the arithmetic
 * task's held-out split (`a±b` of 0–99, drawn as its evaluations draw them,
 * never given to a solver when the environment evaluates), asked as `solver`'s
 * Steps are asked and read as its verifier reads them, through the dataset
 * environment's evaluation: greedy, with `truncated` and
 * `medianCompletionTokens`, and pass@k at temperature 1 when asked.
 */
export async function evaluateSolver(client: InferenceClient, solver: SolverEpisode, problems: number, evaluateOptions?: EnvironmentEvaluateOptions): Promise<EnvironmentEvaluation> {
  const rows: JsonObject[] = heldOutExamples(problems).map((example) => ({ ...example }));
  return evaluateDataset(
    client,
    rows,
    {
      prompt: (row) => solver.question(String(row["problem"])),
      rubric: [{ name: "correct", weight: 1, fn: (completion, row) => (solver.answers(completion, String(row["answer"])) ? 1 : 0) }],
      evaluateBy: "correct",
      maxTokens: solver.maxTokens,
      samplingTemperature: 1,
    },
    evaluateOptions,
  );
}
