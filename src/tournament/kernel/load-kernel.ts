import { readFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { parseInput } from "../../core/parse-input.js";
import { InvalidInputError } from "../../core/errors.js";
import { KernelFileError } from "../errors/index.js";
import { Kernel } from "./kernel.js";
import { KernelDocumentSchema, PATCHABLE_PARAMS } from "./kernel-schema.js";
import { LEGALITY_RULES } from "./legality-rules.js";

/** Parses constitution YAML; every problem is a KernelFileError naming `source` and the field. */
export function parseKernel(text: string, source: string): Kernel {
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const yamlError = document.errors[0];
  if (yamlError !== undefined) {
    throw new KernelFileError(source, `valid YAML (${yamlError.message.split("\n")[0] ?? yamlError.code})`);
  }
  let parsed;
  try {
    parsed = parseInput(KernelDocumentSchema, document.toJS(), { fieldName: (path) => `${source}: ${path.map(String).join(".") || "(root)"}` });
  } catch (error) {
    if (error instanceof InvalidInputError) throw new KernelFileError(error.field, error.allowed, error.received);
    throw error;
  }
  const articleIds = parsed.articles.map((article) => article.id);
  const repeatedId = articleIds.find((id, index) => articleIds.indexOf(id) !== index);
  if (repeatedId !== undefined) throw new KernelFileError(`${source}: articles`, "each article id once", repeatedId);
  for (const rule of LEGALITY_RULES) {
    const governing = parsed.articles.filter((article) => article.rules.includes(rule));
    if (governing.length !== 1) {
      throw new KernelFileError(`${source}: articles[].rules`, `rule "${rule}" in exactly one article (found in ${governing.length === 0 ? "none" : governing.map((article) => article.id).join(", ")})`);
    }
  }
  for (const name of parsed.params.amendableParams) {
    if (!(PATCHABLE_PARAMS as readonly string[]).includes(name)) {
      throw new KernelFileError(`${source}: params.amendableParams`, `names of parameters (${PATCHABLE_PARAMS.join(", ")})`, name);
    }
  }
  return new Kernel(parsed, text);
}

/** Reads and parses a constitution file. */
export async function loadKernel(path: string): Promise<Kernel> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new KernelFileError("--kernel", `a readable constitution YAML file (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`, path);
  }
  return parseKernel(text, path);
}
