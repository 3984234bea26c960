import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** Layers, lowest first: a module may import its own layer or a lower one. */
const LAYER_RANKS: Record<string, number> = {
  "src/core": 0,
  "src/gguf": 1,
  "src/inference": 1,
  "src/arena": 2,
  // The contract a task hands the training loop: what the loop and the tasks both name.
  "src/environments": 2.5,
  "src/frontier": 3,
  // The self-play systems are games built on the engine; they never import tasks, training, the cli or each other.
  "src/dialectic": 3.5,
  "src/riddles": 3.5,
  "src/tournament": 3.5,
  "src/dream": 3.5,
  // Training knows a task only through the environment contract.
  "src/training": 3.75,
  // Tasks wire data, episodes and the self-play systems into trainable environments; a task may use another task.
  "src/tasks": 4,
  // Measuring code over the engine, the trainers and the tasks; the cli's `bench` command runs it.
  "src/benchmarks": 4.5,
  "src/index.ts": 4.75,
  "src/testing.ts": 4.75,
  // The subpath entries (selfplay/tournament, …): each re-exports a subsystem's index.
  "src/entries": 4.75,
  "src/cli": 5,
  // Standalone benchmark scripts (node dist/benchmarks/*.js).
  benchmarks: 5,
};
const SYSTEM_RANK = 3.5;

function layerOf(file: string): string {
  const match = Object.keys(LAYER_RANKS)
    .filter((layer) => file === layer || file.startsWith(`${layer}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (!match) throw new Error(`${file} is in no layer: add its folder to LAYER_RANKS in tests/layering.test.ts`);
  return match;
}

function sourceFiles(folder: string): string[] {
  const absolute = join(root, folder);
  let entries: string[];
  try {
    entries = readdirSync(absolute, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.endsWith(".ts")).map((entry) => join(folder, entry));
}

/** Project-internal imports of a file, as paths relative to the repository root. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, ".ts"));
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file)]));
}

/** Every upward or sideways-between-systems import, as readable lines. */
function layerViolations(graph: Map<string, string[]>): string[] {
  const violations: string[] = [];
  for (const [file, imports] of graph) {
    const from = layerOf(file);
    for (const target of imports) {
      const to = layerOf(target);
      const fromRank = LAYER_RANKS[from] as number;
      const toRank = LAYER_RANKS[to] as number;
      const upward = toRank > fromRank;
      const betweenSystems = fromRank === SYSTEM_RANK && toRank === SYSTEM_RANK && from !== to;
      if (upward || betweenSystems) violations.push(`${file} (${from}) imports ${target} (${to})`);
    }
  }
  return violations;
}

/** Import cycles, each as the list of files around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "visiting");
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === "visiting") found.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target) && graph.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("layering", () => {
  const graph = importGraph([...sourceFiles("src"), ...sourceFiles("benchmarks")]);

  it("reads the real source tree", () => {
    expect(graph.size).toBeGreaterThan(40);
    expect(graph.get("src/arena/arena.ts")).toContain("src/core/credit/role-aware-credit.ts");
  });

  it("has no upward import and no import between self-play systems", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it("has no circular import", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("catches an upward import and a cycle when there is one", () => {
    const broken = new Map([
      ["src/core/a.ts", ["src/arena/b.ts"]],
      ["src/arena/b.ts", ["src/core/a.ts"]],
      ["src/riddles/c.ts", ["src/dialectic/d.ts"]],
      ["src/dialectic/d.ts", ["src/tasks/e/e.ts"]],
      ["src/training/f.ts", ["src/tasks/e/e.ts"]],
      ["src/tasks/e/e.ts", ["src/tasks/g/g.ts", "src/training/h.ts", "src/riddles/i.ts"]],
    ]);
    expect(layerViolations(broken)).toEqual([
      "src/core/a.ts (src/core) imports src/arena/b.ts (src/arena)",
      "src/riddles/c.ts (src/riddles) imports src/dialectic/d.ts (src/dialectic)",
      "src/dialectic/d.ts (src/dialectic) imports src/tasks/e/e.ts (src/tasks)",
      "src/training/f.ts (src/training) imports src/tasks/e/e.ts (src/tasks)",
    ]);
    expect(cycles(broken)).toEqual([["src/core/a.ts", "src/arena/b.ts", "src/core/a.ts"]]);
  });
});
