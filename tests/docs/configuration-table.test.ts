import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TrainingConfigurationSchema } from "../../src/training/loop/training-configuration.js";
import { configurationRows, configurationTable } from "./configuration-table.js";

const root = resolve(import.meta.dirname, "..", "..");
const page = join(root, "docs", "training.md");
const START = "<!-- configuration-table: generated from TrainingConfigurationSchema by tests/docs/configuration-table.test.ts -->";
const END = "<!-- configuration-table: end -->";

describe("the configuration table in docs/training.md", () => {
  const rows = configurationRows(TrainingConfigurationSchema, "TrainingConfigurationSchema", join(root, "src"));
  const table = configurationTable(rows);

  it("lists every key of the training configuration, with its type, default and meaning, as the schema has them", () => {
    const text = readFileSync(page, "utf8");
    // SELFPLAY_WRITE_DOCS=1 rewrites the table after a schema change; the check below then passes.
    if (process.env.SELFPLAY_WRITE_DOCS === "1") writeFileSync(page, text.replace(new RegExp(`${START}[\\s\\S]*?${END}`), `${START}\n${table}\n${END}`));
    const written = readFileSync(page, "utf8");
    const between = written.slice(written.indexOf(START) + START.length, written.indexOf(END)).trim();
    expect(written.includes(START) && written.includes(END), "docs/training.md lacks the table's markers").toBe(true);
    expect(between, "regenerate it: SELFPLAY_WRITE_DOCS=1 npx vitest run tests/docs/configuration-table.test.ts").toBe(table);
  });

  it("has a meaning for every key: each has a doc comment in the source", () => {
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.filter((row) => row.meaning === "").map((row) => row.key)).toEqual([]);
    expect(rows.find((row) => row.key === "trainer.optimizer.learningRate")).toMatchObject({ type: "number", default: "0.0001" });
  });

  it("catches a key without a doc comment and a default that changed", () => {
    const folder = join(root, "tests", "docs", "fixtures", "configuration-source");
    const Inner = z.strictObject({ rate: z.number().default(0.5) });
    const Outer = z.strictObject({ inner: Inner.default({ rate: 0.5 }), steps: z.number().int().default(3) });
    const rows = configurationRows(Outer, "OuterSchema", folder);
    expect(rows).toEqual([
      { key: "inner.rate", type: "number", default: "0.5", meaning: "How fast." },
      { key: "steps", type: "integer", default: "3", meaning: "" },
    ]);
  });
});
