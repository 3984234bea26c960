import { extractJson } from "../core/structured/extract-json.js";
import { CRITIQUE_LIMITS } from "./critique.js";

type Field = "approved" | "score" | "feedback" | "issues" | "suggestions" | Aspect;
type Aspect = "correctness" | "completeness" | "style" | "efficiency";

const ASPECTS: readonly Aspect[] = ["correctness", "completeness", "style", "efficiency"];

/** Labels plain-text critics use, lower-cased, and the field each one fills. */
const LABELS: Readonly<Record<string, Field>> = {
  approved: "approved",
  approval: "approved",
  verdict: "approved",
  decision: "approved",
  score: "score",
  "overall score": "score",
  "quality score": "score",
  rating: "score",
  feedback: "feedback",
  summary: "feedback",
  assessment: "feedback",
  "overall assessment": "feedback",
  issues: "issues",
  "issues found": "issues",
  problems: "issues",
  weaknesses: "issues",
  suggestions: "suggestions",
  improvements: "suggestions",
  recommendations: "suggestions",
  correctness: "correctness",
  completeness: "completeness",
  style: "style",
  efficiency: "efficiency",
};

const LABELLED_LINE = /^"?([A-Za-z][A-Za-z ]{0,30}?)"?\s*[:=]\s*(.*)$/;
const BULLET = /^(?:[-*•+]|\d{1,2}[.)])\s+(.*)$/;
const BARE_APPROVAL = /^approved[.!]?$/i;
const BARE_REJECTION = /^(not approved|rejected|needs (work|improvement|revision|changes))[.!]?$/i;
const APPROVING = /^(yes|true|approved?|accept(ed)?|pass(ed)?|lgtm)\b/i;
const REJECTING = /^(no|false|not approved|rejected?|fail(ed)?|needs (work|improvement|revision|changes))\b/i;

/**
 * Reads a critique the way a plain-text critic from a remote model writes one:
 * JSON inside prose or a code fence, or labelled lines such as
 * `APPROVED: no`, `**Score:** 7/10`, `Score: 85%`, a bare `APPROVED` line,
 * `Issues:` with a comma list or bullets below it, and aspect lines such as
 * `Correctness: 0.8`. Text is cut to CritiqueSchema's bounds. Returns a plain
 * object for the schema to validate; an output that is nothing but JSON is
 * returned as written, so a grammar-constrained output is validated unrepaired.
 * Throws a SyntaxError when there is no score (a missing approval reads as
 * "not approved": a critic approves only by saying so), or when the output
 * starts like JSON but does not parse (a truncated object is not guessed at).
 */
export function parseCritique(text: string): unknown {
  const trimmed = text.trim();
  let embedded: unknown;
  if (trimmed.startsWith("{")) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // JSON followed by prose is read tolerantly; JSON cut short throws here.
      embedded = JSON.parse(trimmed.slice(0, trimmed.lastIndexOf("}") + 1));
    }
  } else {
    try {
      embedded = extractJson(trimmed);
    } catch {
      return fitToLimits(withDefaults(readLabelledLines(trimmed)));
    }
  }
  if (typeof embedded !== "object" || embedded === null || Array.isArray(embedded)) {
    throw new SyntaxError("the JSON in the critique is not an object");
  }
  return fitToLimits(withDefaults(readObject(embedded as Record<string, unknown>)));
}

function readObject(object: Record<string, unknown>): Record<string, unknown> {
  const critique: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const name = key.toLowerCase();
    const field = LABELS[name];
    if (field !== undefined) setField(critique, field, value);
    else if ((name === "scores" || name === "aspects") && typeof value === "object" && value !== null) {
      for (const [aspect, score] of Object.entries(value as Record<string, unknown>)) {
        const aspectField = LABELS[aspect.toLowerCase()];
        if (aspectField !== undefined && isAspect(aspectField)) setField(critique, aspectField, score);
      }
    }
  }
  return collectAspects(critique);
}

function readLabelledLines(text: string): Record<string, unknown> {
  const critique: Record<string, unknown> = {};
  const prose: string[] = [];
  let current: Field | undefined;
  // Under a list label, plain lines are items until a blank line; after one, only bullets are.
  let plainItems = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const bullet = BULLET.exec(rawLine.trim());
    // Markdown emphasis and headings carry no meaning here: `**Score:** 0.7`, `## Issues`.
    const line = (bullet?.[1] ?? rawLine).replace(/[*_`#>]+/g, " ").replace(/\s+/g, " ").trim();
    if (line === "") {
      plainItems = false;
      continue;
    }
    const labelled = LABELLED_LINE.exec(line);
    const field = LABELS[(labelled?.[1] ?? line.replace(/:$/, "")).trim().toLowerCase()];
    if (current !== undefined && isList(current) && (bullet || (plainItems && field === undefined))) {
      critique[current] = [...((critique[current] as string[] | undefined) ?? []), line];
      continue;
    }
    if (BARE_REJECTION.test(line) || BARE_APPROVAL.test(line)) {
      critique["approved"] = BARE_APPROVAL.test(line);
      current = undefined;
      continue;
    }
    if (field !== undefined) {
      current = field;
      plainItems = isList(field);
      const value = labelled?.[2]?.trim() ?? "";
      if (value !== "") setField(critique, field, value);
      else if (isList(field)) critique[field] = [];
      continue;
    }
    if (current === "feedback") critique["feedback"] = `${String(critique["feedback"] ?? "")} ${line}`.trim();
    else {
      prose.push(line);
      current = undefined;
    }
  }
  if (critique["score"] === undefined && !ASPECTS.some((aspect) => aspect in critique)) {
    throw new SyntaxError('no score in the critique (write a line such as "Score: 0.7")');
  }
  if (critique["feedback"] === undefined && prose.length > 0) critique["feedback"] = prose.join(" ");
  return collectAspects(critique);
}

/** A critic approves only by saying so; a critique without issues or suggestions has none. */
function withDefaults(critique: Record<string, unknown>): Record<string, unknown> {
  return { approved: false, feedback: "", issues: [], suggestions: [], ...critique };
}

function setField(critique: Record<string, unknown>, field: Field, value: unknown): void {
  if (field === "approved") critique[field] = readApproval(value);
  else if (field === "score" || isAspect(field)) critique[field] = readScore(value);
  else if (field === "feedback") critique[field] = value;
  else critique[field] = readList(value);
}

function isList(field: Field): field is "issues" | "suggestions" {
  return field === "issues" || field === "suggestions";
}

function isAspect(field: Field): field is Aspect {
  return (ASPECTS as readonly string[]).includes(field);
}

/** Aspect lines (`Correctness: 0.8`) become the `scores` object a weighted critique has. */
function collectAspects(critique: Record<string, unknown>): Record<string, unknown> {
  const present = ASPECTS.filter((aspect) => aspect in critique);
  if (present.length === 0) return critique;
  critique["scores"] = Object.fromEntries(present.map((aspect) => [aspect, critique[aspect]]));
  for (const aspect of present) delete critique[aspect];
  return critique;
}

function readApproval(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (REJECTING.test(text)) return false;
  if (APPROVING.test(text)) return true;
  return value;
}

/** `0.7`, `.7`, `70%`, `7/10`, `7` (out of 10) and `85` (out of 100); numbers that are already numbers stay as they are. */
function readScore(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const match = /(\d+(?:\.\d+)?|\.\d+)\s*(%|\/\s*(\d+(?:\.\d+)?))?/.exec(value);
  if (!match) return value;
  const number = Number(match[1]);
  if (match[2] === "%") return number / 100;
  if (match[3] !== undefined) return Number(match[3]) > 0 ? number / Number(match[3]) : value;
  if (number <= 1) return number;
  if (number <= 10) return number / 10;
  if (number <= 100) return number / 100;
  return number;
}

function readList(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => cleanItem(String(item))).filter((item) => item !== "");
  if (typeof value !== "string") return value;
  if (/^(none|n\/a|nothing|-)?\.?$/i.test(value.trim())) return [];
  // Semicolons separate items that themselves contain commas; otherwise commas do.
  const separator = value.includes(";") ? ";" : ",";
  return value.split(separator).map(cleanItem).filter((item) => item !== "");
}

function cleanItem(item: string): string {
  return item.replace(/^\s*(?:[-*•+]|\d{1,2}[.)])\s+/, "").replace(/[*_`]+/g, "").trim();
}

function fitToLimits(critique: Record<string, unknown>): Record<string, unknown> {
  if (typeof critique["feedback"] === "string") critique["feedback"] = cut(critique["feedback"], CRITIQUE_LIMITS.feedback);
  for (const field of ["issues", "suggestions"]) {
    const items = critique[field];
    if (Array.isArray(items)) {
      critique[field] = items.slice(0, CRITIQUE_LIMITS.items).map((item) => (typeof item === "string" ? cut(item, CRITIQUE_LIMITS.item) : item));
    }
  }
  return critique;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
