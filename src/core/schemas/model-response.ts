import { z } from "zod";
import { FinishReasonSchema, StepSchema } from "./step.js";

/** What an episode gets back from `context.callModel`: the text and the Step it recorded. */
export const ModelResponseSchema = z.object({
  text: z.string(),
  finishReason: FinishReasonSchema,
  step: StepSchema,
});
export type ModelResponse = z.infer<typeof ModelResponseSchema>;
