import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { InferenceClient } from "../../core/inference-client.js";
import { deriveStream } from "../../core/random/random-stream.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import type { RiddleProgress } from "../riddle-episode-hooks.js";
import { actorInboxPrompt } from "./actor-inbox-prompt.js";
import { readInboxQuestions } from "./read-inbox-questions.js";

/** File names of the inbox and outbox in a curriculum's folder. */
export const INBOX_FILES = { inbox: "actor_inbox.md", outbox: "actor_outbox.md" } as const;

export interface ActorInboxOptions {
  /** The curriculum's folder; the inbox and outbox are created in it. */
  folder: string;
  /** Answers questions. Its calls are judge calls: never Steps, never in rollouts.jsonl. */
  client: InferenceClient;
  /** Run seed: question k's sampler seed comes from deriveStream(seed, "actor-inbox", k). */
  seed: number;
  /** Tokens an answer may take. Default 128. */
  maxTokens?: number;
  /** Sampling temperature of answers. Default 0.7. */
  temperature?: number;
}

const INBOX_HEADER =
  "# Actor inbox\n\n<!-- Append a question as one line (end it with Enter); the actor answers it into actor_outbox.md between two solvers. -->\n\n";

/**
 * Lets a person talk to the actor while a curriculum runs: questions appended
 * to actor_inbox.md are answered into actor_outbox.md. Answers come from the
 * client directly with their own seed stream, so the episode's calls, seeds
 * and rollouts are the same with or without questions.
 */
export class ActorInbox {
  private offset: number;
  private answered = 0;
  private readonly inboxPath: string;
  private readonly outboxPath: string;

  private constructor(private readonly options: ActorInboxOptions, offset: number) {
    this.offset = offset;
    this.inboxPath = join(options.folder, INBOX_FILES.inbox);
    this.outboxPath = join(options.folder, INBOX_FILES.outbox);
  }

  /** Creates the inbox (keeping questions already in one; they are answered first) and the outbox. */
  static async create(options: ActorInboxOptions): Promise<ActorInbox> {
    await writeFile(join(options.folder, INBOX_FILES.inbox), INBOX_HEADER, { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    await appendFile(join(options.folder, INBOX_FILES.outbox), "");
    return new ActorInbox(options, 0);
  }

  /** Questions answered so far. */
  get answeredCount(): number {
    return this.answered;
  }

  /** Answers every complete question appended since the last call; returns how many. */
  async answerPending(progress: RiddleProgress | null): Promise<number> {
    const content = await readFile(this.inboxPath).catch(() => Buffer.alloc(0));
    // An inbox someone truncated starts over from its beginning.
    if (content.length < this.offset) this.offset = 0;
    const { questions, nextOffset } = readInboxQuestions(content, this.offset);
    this.offset = nextOffset;
    for (const question of questions) await this.answer(question, progress);
    return questions.length;
  }

  private async answer(question: string, progress: RiddleProgress | null): Promise<void> {
    const number = ++this.answered;
    const seed = deriveStream(this.options.seed, "actor-inbox", String(number)).uint32();
    let answer: string;
    try {
      const [output] = await this.options.client.generate([
        {
          messages: actorInboxPrompt(question, progress),
          sampler: { ...DEFAULT_SAMPLER, temperature: this.options.temperature ?? 0.7, maxTokens: this.options.maxTokens ?? 128, seed },
          constraint: null,
        },
      ]);
      answer = output?.text.trim() || "(the actor gave an empty answer)";
    } catch (error) {
      // The run goes on; the failure is reported where the question was asked.
      answer = `(could not answer: ${error instanceof Error ? error.message : String(error)})`;
    }
    const where = progress === null ? "between episodes" : `episode ${progress.episodeIndex}, after solver ${progress.solversRun}/${progress.solversPlanned} (solved so far ${progress.solvedSoFar})`;
    // One append per answer: a kill leaves earlier answers whole.
    await appendFile(this.outboxPath, `## Q${number} (${where})\n\n> ${question}\n\n${answer}\n\n`);
  }
}
