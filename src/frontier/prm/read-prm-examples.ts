import { InvalidInputError } from "../../core/errors/index.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { expandGlob } from "../labelling/expand-glob.js";
import { PrmExampleSchema, type PrmExample } from "./prm-state.js";

export interface PrmExamples {
  examples: PrmExample[];
  /** The files read, sorted. */
  files: string[];
  /** Files whose last line was torn by an interrupted writer (that line is skipped). */
  tornFiles: string[];
}

/** Every labelled state in the JSONL files `glob` names (one PrmExample a line); a bad line is an error naming it. */
export async function readPrmExamples(glob: string): Promise<PrmExamples> {
  const files = await expandGlob(glob);
  if (files.length === 0) throw new InvalidInputError("trajectories", "a glob that names at least one labelled-trajectory JSONL file", glob);
  const examples: PrmExample[] = [];
  const tornFiles: string[] = [];
  for (const file of files) {
    const contents = await readJsonl(file, PrmExampleSchema);
    // Not push(...records): spreading a file of ~100,000 lines overflows the call stack.
    for (const record of contents.records) examples.push(record);
    if (contents.tornLastLine !== null) tornFiles.push(file);
  }
  return { examples, files, tornFiles };
}
