import { z } from "zod";
import type { JsonObject } from "../json.js";
import type { Constraint, LogitBias } from "../schemas/constraint.js";

/**
 * The JSON-schema constraint of a zod schema. Inference clients compile it to a
 * grammar; what a grammar cannot express (a refinement, say) is still checked
 * by parsing the output against the zod schema itself.
 */
export function jsonSchemaConstraint(schema: z.ZodType, logitBias?: LogitBias): Constraint {
  const jsonSchema = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" }) as JsonObject;
  return { kind: "json-schema", schema: jsonSchema, ...(logitBias && { logitBias }) };
}
