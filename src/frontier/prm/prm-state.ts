import { z } from "zod";

/**
 * A (task, prefix) state the PRM scores: the task as the solver saw it, the
 * cluster it belongs to, and the partial solution written so far ("" before
 * the first token). Cluster names are opaque here (`add-2x2-carry` for
 * arithmetic); the curriculum never interprets them.
 */
export const PrmStateSchema = z.object({
  task: z.string(),
  cluster: z.string().min(1, "a cluster name"),
  prefix: z.string(),
});
export type PrmState = z.infer<typeof PrmStateSchema>;

/**
 * One line of a labelled-trajectory file, the input of `selfplay prm train`
 * and the output of `selfplay prm label`: a state and its Monte-Carlo success
 * estimate (the share of continuations from that prefix that succeeded, in
 * [0, 1]; the PRM trains on it as a soft label).
 */
export const PrmExampleSchema = PrmStateSchema.extend({
  label: z.number().min(0, "a number in [0, 1]").max(1, "a number in [0, 1]"),
});
export type PrmExample = z.infer<typeof PrmExampleSchema>;
