import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KernelFileError } from "../../../src/tournament/errors/index.js";
import { KERNEL_FILE_MAX_BYTES, parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { runCli } from "../../helpers/run-cli.js";

const shipped = readFileSync("constitutions/constitution-0.1.0.yaml", "utf8");
const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]", ...["b", "c", "d", "e"].map((name, index) => `${name}: &${name} [${Array(9).fill(`*${"abcd"[index]}`).join(", ")}]`)].join("\n");

/** Each of these ended the CLI with a ReferenceError stack trace and exit 1, or held it at 100% CPU for minutes. */
const hostile: [string, string, RegExp][] = [
  ["an undefined alias", `${shipped}\nx: *nowhere\n`, /aliases name an anchor set before them .*Unresolved alias/],
  ["more than 100 aliases", `${shipped}\nanchor: &one 1\nmany: [${Array(150).fill("*one").join(", ")}]\n`, /expand at most 100 times .*Excessive alias count/],
  ["an alias bomb", bomb, /expand at most 100 times/],
  ["a file past the size cap", `${shipped}\n# ${"x".repeat(KERNEL_FILE_MAX_BYTES)}\n`, new RegExp(`at most ${KERNEL_FILE_MAX_BYTES} bytes`)],
  ["flow nesting 30,000 deep", `x: ${"[".repeat(30_000)}${"]".repeat(30_000)}\n`, /nest at most 64 deep/],
  ["a mapping with a key twice", shipped.replace("  quorumPercent: 50", "  quorumPercent: 50\n  quorumPercent: 40"), /params: expected each key once in a mapping \("quorumPercent" appears twice\)/],
  ["as many unknown keys as fit the cap", `${shipped}\n${Array.from({ length: 7_000 }, (_, index) => `k${index}: 1`).join("\n")}\n`.slice(0, KERNEL_FILE_MAX_BYTES), /unknown key; remove it .*and \d+ more\)/],
  ["as many articles as fit the cap", shipped.replace(/articles:\n/, `articles:\n${Array.from({ length: 1_500 }, (_, index) => `  - { id: "X${index}", title: t, text: t, rules: [] }`).join("\n")}\n`).slice(0, KERNEL_FILE_MAX_BYTES), /./],
];

describe("hostile kernel files", () => {
  for (const [name, text, message] of hostile) {
    it(`refuses ${name} with KernelFileError within a second`, () => {
      const started = performance.now();
      let thrown: unknown;
      try {
        parseKernel(text, "k.yaml");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(KernelFileError);
      expect((thrown as Error).message).toMatch(/^k\.yaml/);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message.length).toBeLessThan(2_000);
      expect(performance.now() - started).toBeLessThan(1_000);
    });
  }

  it("makes the CLI exit 2 with the file and the problem, no stack trace", async () => {
    const folder = await mkdtemp(join(tmpdir(), "hostile-kernel-"));
    try {
      await writeFile(join(folder, "k.yaml"), `${shipped}\nx: *nowhere\n`);
      const run = await runCli(["tournament", "--kernel", join(folder, "k.yaml"), "--seed", "1", "--out", join(folder, "out")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: .*k\.yaml: expected YAML whose aliases name an anchor set before them/);
      expect(run.stderr).not.toMatch(/ReferenceError|\n\s+at /);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
