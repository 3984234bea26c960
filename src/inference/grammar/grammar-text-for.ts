import type { Constraint } from "../../core/schemas/constraint.js";
import { jsonSchemaToGbnf } from "./json-schema-to-gbnf.js";

/** The GBNF text a constraint compiles to: what the engine's grammar sampler runs. */
export function grammarTextFor(constraint: Constraint): string {
  return constraint.kind === "grammar" ? constraint.gbnf : jsonSchemaToGbnf(constraint.schema);
}
