import { readFile } from "node:fs/promises";
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import { parseInput } from "../../core/parse-input.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { KernelFileError } from "../errors/index.js";
import { Kernel } from "./kernel.js";
import { KernelDocumentSchema, PATCHABLE_PARAMS } from "./kernel-schema.js";
import { LEGALITY_RULES } from "./legality-rules.js";

/**
 * The largest constitution accepted, in bytes. The shipped kernels are under
 * 4 KiB; 64 KiB leaves room for sixteen times as much text while bounding the
 * worst a hostile file can cost (about a second of parsing on a small VM).
 */
export const KERNEL_FILE_MAX_BYTES = 64 * 1024;
/** Flow collections (`[`, `{`) nested deeper than this are refused before parsing: the YAML parser recurses on them. */
export const KERNEL_MAX_FLOW_NESTING = 64;
/** Alias expansions allowed (the yaml library's `maxAliasCount`); past it, an alias bomb. */
export const KERNEL_MAX_ALIAS_COUNT = 100;

/** The deepest nesting of flow brackets outside quotes and comments, stopping once past `limit` (one pass, no allocation). */
function flowNesting(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let quote: string | null = null;
  for (let index = 0; index < text.length && deepest <= limit; index++) {
    const character = text[index];
    if (quote !== null) {
      if (character === "\\" && quote === '"') index++;
      else if (character === quote) quote = null;
    } else if (character === '"' || character === "'") quote = character;
    else if (character === "#" && (index === 0 || /\s/.test(text[index - 1] ?? ""))) {
      while (index < text.length && text[index] !== "\n") index++;
    } else if (character === "[" || character === "{") deepest = Math.max(deepest, ++depth);
    else if (character === "]" || character === "}") depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** The first key that appears twice in one mapping, with its path; checked in one pass (the yaml library's own check compares every key with every key). */
function repeatedKey(node: unknown, path: string): { path: string; key: string } | undefined {
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      if (seen.has(key)) return { path, key };
      seen.add(key);
      const inner = repeatedKey(pair.value, path === "" ? key : `${path}.${key}`);
      if (inner !== undefined) return inner;
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) {
      const inner = repeatedKey(item, `${path}[${index}]`);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/**
 * Parses constitution YAML; every problem is a KernelFileError naming
 * `source` and the field or the limit — a file past KERNEL_FILE_MAX_BYTES,
 * flow nesting past KERNEL_MAX_FLOW_NESTING, an undefined alias or more
 * alias expansions than KERNEL_MAX_ALIAS_COUNT, a repeated key — so no input
 * costs more than about a second or ends in anything but KernelFileError.
 */
export function parseKernel(text: string, source: string): Kernel {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > KERNEL_FILE_MAX_BYTES) throw new KernelFileError(source, `a constitution of at most ${KERNEL_FILE_MAX_BYTES} bytes (this file has ${bytes})`);
  if (flowNesting(text, KERNEL_MAX_FLOW_NESTING) > KERNEL_MAX_FLOW_NESTING) throw new KernelFileError(source, `YAML whose [ ] and { } nest at most ${KERNEL_MAX_FLOW_NESTING} deep`);
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const yamlError = document.errors[0];
  if (yamlError !== undefined) {
    throw new KernelFileError(source, `valid YAML (${yamlError.message.split("\n")[0] ?? yamlError.code})`);
  }
  const repeated = repeatedKey(document.contents, "");
  if (repeated !== undefined) throw new KernelFileError(`${source}: ${repeated.path || "(root)"}`, `each key once in a mapping (${JSON.stringify(repeated.key)} appears twice)`);
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: KERNEL_MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library throws ReferenceError for an undefined alias and for an alias bomb.
    if (!(error instanceof ReferenceError)) throw error;
    throw new KernelFileError(source, `YAML whose aliases name an anchor set before them and expand at most ${KERNEL_MAX_ALIAS_COUNT} times (${error.message})`);
  }
  let parsed;
  try {
    parsed = parseInput(KernelDocumentSchema, value, { fieldName: (path) => `${source}: ${path.map(String).join(".") || "(root)"}` });
  } catch (error) {
    if (error instanceof InvalidInputError) throw new KernelFileError(error.field, error.allowed, error.received);
    throw error;
  }
  const articleIds = new Set<string>();
  const repeatedId = parsed.articles.map((article) => article.id).find((id) => articleIds.size === articleIds.add(id).size);
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
