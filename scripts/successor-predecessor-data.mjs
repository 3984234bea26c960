#!/usr/bin/env node
// Writes the successor/predecessor questions for `--env exact-match` (`environment.data`) as JSONL:
// `N+1=` → N + 1 and `N-1=` → N − 1 for N in 10–99, each with its cluster — by operation and by
// whether the units carry (N ends in 9) or borrow (N ends in 0), the cases a base that half-knows
// counting gets wrong. Usage: node scripts/successor-predecessor-data.mjs [OUT]
// (default benchmarks/data/successor-predecessor.jsonl).
import { writeFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** Every question, successors then predecessors, N ascending. */
export function successorPredecessorQuestions() {
  const questions = [];
  for (let n = 10; n < 100; n++) questions.push({ question: `${n}+1=`, answer: String(n + 1), cluster: n % 10 === 9 ? "successor-carry" : "successor" });
  for (let n = 10; n < 100; n++) questions.push({ question: `${n}-1=`, answer: String(n - 1), cluster: n % 10 === 0 ? "predecessor-borrow" : "predecessor" });
  return questions;
}

if (fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2] ?? "benchmarks/data/successor-predecessor.jsonl";
  writeFileSync(out, successorPredecessorQuestions().map((question) => `${JSON.stringify(question)}\n`).join(""));
  process.stdout.write(`wrote ${out}\n`);
}
