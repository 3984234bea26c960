import { SelfplayError } from "../../core/errors/index.js";

/** A JSON schema uses something a grammar cannot express; `path` is where in the schema. */
export class UnsupportedSchemaError extends SelfplayError {
  override readonly name = "UnsupportedSchemaError";
  constructor(readonly path: string, expected: string) {
    super(`schema at ${path}: expected ${expected}; simplify the schema (validation after sampling can still check the rest)`);
  }
}
