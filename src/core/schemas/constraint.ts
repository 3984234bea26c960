import { z } from "zod";
import { JsonObjectSchema } from "../json.js";

/** What restricted a call's output: a JSON schema or a GBNF grammar. */
export const ConstraintSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("json-schema"), schema: JsonObjectSchema }),
  z.object({ kind: z.literal("grammar"), gbnf: z.string().min(1) }),
]);
export type Constraint = z.infer<typeof ConstraintSchema>;
