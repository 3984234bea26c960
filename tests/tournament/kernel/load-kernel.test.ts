import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KernelFileError } from "../../../src/tournament/errors/index.js";
import { loadKernel, parseKernel } from "../../../src/tournament/kernel/load-kernel.js";

const text010 = readFileSync("constitutions/constitution-0.1.0.yaml", "utf8");

/** The error parseKernel throws for `text`, or a failure if it throws none. */
function kernelError(text: string): KernelFileError {
  try {
    parseKernel(text, "k.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(KernelFileError);
    return error as KernelFileError;
  }
  throw new Error("parseKernel accepted a bad kernel");
}

describe("parseKernel / loadKernel", () => {
  it("loads both shipped kernels, 0.2.0 differing only in the emergency cooldown and the holding cap", async () => {
    const kernel010 = await loadKernel("constitutions/constitution-0.1.0.yaml");
    const kernel020 = await loadKernel("constitutions/constitution-0.2.0.yaml");
    expect(kernel010.version).toBe("0.1.0");
    expect(kernel020.version).toBe("0.2.0");
    expect(kernel010.param("emergencyCooldownRounds")).toBe(0);
    expect(kernel010.param("maxHoldingPercentOfFairShare")).toBe(1000);
    expect({ ...kernel020.params, emergencyCooldownRounds: 0, maxHoldingPercentOfFairShare: 1000 }).toEqual(kernel010.params);
    expect(kernel010.articleFor("emergency.cooldown").id).toBe("Art. 6");
    expect(kernel010.textSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses YAML that does not parse, naming the file", () => {
    const error = kernelError("version: \"0.1.0\"\nparams: [unclosed\n");
    expect(error.message).toMatch(/^k\.yaml: .*expected valid YAML/);
  });

  it("refuses a key twice", () => {
    expect(kernelError(`${text010}\nversion: "0.1.1"\n`).message).toBe(`k.yaml: (root): expected each key once in a mapping ("version" appears twice)`);
  });

  it("refuses an unknown key, naming it and the nearest valid one", () => {
    const error = kernelError(text010.replace("quorumPercent:", "quorumPercnt:"));
    expect(error.field).toBe("k.yaml: params.quorumPercnt");
    expect(error.message).toContain("quorumPercent");
  });

  it("refuses a rule no article governs, naming the rule", () => {
    const error = kernelError(text010.replace("rules: [proposal.limit]", "rules: [tally.funds]").replace("rules: [spend.amount, spend.recipient, tally.funds]", "rules: [spend.amount, spend.recipient]"));
    expect(error.message).toContain('rule "proposal.limit" in exactly one article (found in none)');
  });

  it("refuses a rule two articles govern, naming both", () => {
    const error = kernelError(text010.replace("rules: [proposal.limit]", "rules: [proposal.limit, exit.share]"));
    expect(error.message).toContain('rule "exit.share" in exactly one article (found in Art. 3, Art. 7)');
  });

  it("refuses a version that is not major.minor.patch, and an unquoted one YAML reads as a number", () => {
    expect(kernelError(text010.replace('version: "0.1.0"', 'version: "v1"')).field).toBe("k.yaml: version");
    const unquoted = kernelError(text010.replace('version: "0.1.0"', "version: 0.1"));
    expect(unquoted.field).toBe("k.yaml: version");
  });

  it("refuses a float percent and an unknown rule id", () => {
    expect(kernelError(text010.replace("quorumPercent: 50", "quorumPercent: 50.5")).field).toBe("k.yaml: params.quorumPercent");
    expect(kernelError(text010.replace("rules: [proposal.limit]", "rules: [proposal.limits]")).field).toBe("k.yaml: articles.2.rules.0");
  });

  it("refuses an amendable parameter that does not exist", () => {
    expect(kernelError(text010.replace("    - quorumPercent\n", "    - quorum\n")).field).toBe("k.yaml: params.amendableParams");
  });

  it("names --kernel when the file cannot be read", async () => {
    const missing = join(mkdtempSync(join(tmpdir(), "kernel-")), "none.yaml");
    await expect(loadKernel(missing)).rejects.toThrow(/--kernel: .*expected a readable constitution YAML file \(ENOENT\)/);
    writeFileSync(missing, "version: [");
    await expect(loadKernel(missing)).rejects.toBeInstanceOf(KernelFileError);
  });
});
