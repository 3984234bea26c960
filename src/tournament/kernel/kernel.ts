import { createHash } from "node:crypto";
import type { Article, KernelDocument, KernelParams } from "./kernel-schema.js";
import type { LegalityRule } from "./legality-rules.js";

/** A loaded, validated constitution: its version, parameters and articles, and the text it came from. */
export class Kernel {
  readonly version: string;
  readonly params: Readonly<KernelParams>;
  readonly articles: readonly Article[];
  /** SHA-256 of the exact text; a replay's outcome depends only on (transcript, this text). */
  readonly textSha256: string;
  private readonly articleByRule: ReadonlyMap<LegalityRule, Article>;

  constructor(document: KernelDocument, readonly text: string) {
    this.version = document.version;
    this.params = Object.freeze({ ...document.params, amendableParams: [...document.params.amendableParams] });
    this.articles = document.articles;
    this.textSha256 = createHash("sha256").update(text).digest("hex");
    this.articleByRule = new Map(document.articles.flatMap((article) => article.rules.map((rule) => [rule, article] as const)));
  }

  /** A parameter's value, or `fallback` when this kernel does not set it. */
  param<Name extends keyof KernelParams>(name: Name, fallback?: KernelParams[Name]): KernelParams[Name] {
    return this.params[name] ?? (fallback as KernelParams[Name]);
  }

  /** The article that governs a rule (validated at load: there is exactly one). */
  articleFor(rule: LegalityRule): Article {
    const article = this.articleByRule.get(rule);
    if (article === undefined) throw new Error(`kernel ${this.version} has no article for rule ${rule}; loadKernel should have refused it`);
    return article;
  }
}
