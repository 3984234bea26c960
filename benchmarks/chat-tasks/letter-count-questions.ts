import { isHeldOut, parseHeldOutRule } from "../../src/core/held-out/held-out-rule.js";
import { RandomStream } from "../../src/core/random/random-stream.js";
import { COMMON_WORDS } from "./common-words.js";

/** One question of the task, with its side of the held-out split. */
export interface LetterCountQuestion {
  [column: string]: string;
  question: string;
  /** How many times the letter appears, as text (`"0"`, `"2"`). */
  answer: string;
  /** The count's cluster: `0`, `1`, `2` or `3+`. */
  cluster: string;
  /** `test` (held out) or `train`. */
  split: string;
}

/** A quarter of the words held out, by the core fraction rule over the word: no held-out word is ever trained on. */
const LETTER_COUNTS_HELD_OUT = parseHeldOutRule({ rule: "fraction", fraction: 0.25, salt: "selfplay-chat-task-letter-counts\u241f" });

/**
 * The letter-count questions (`How many times does the letter "l" appear in
 * the word "balloon"?` → `2`): of each common word, every repeated letter, two
 * letters it has once and two it lacks (answer 0), chosen by a seeded stream,
 * so a model that always says "1" is right under half the time. Shuffled by a
 * seeded stream, so the first held-out rows an evaluation takes are a random
 * sample of them. The same 1,925 rows (448 held out) on every machine.
 */
export function letterCountQuestions(): LetterCountQuestion[] {
  const random = new RandomStream("letter-counts");
  const alphabet = [..."abcdefghijklmnopqrstuvwxyz"];
  const pick = (letters: readonly string[], count: number) => {
    const left = [...letters];
    return Array.from({ length: Math.min(count, left.length) }, () => left.splice(random.integer(left.length), 1)[0] as string);
  };
  const questions = COMMON_WORDS.flatMap((word) => {
    const countOf = (letter: string) => [...word].filter((character) => character === letter).length;
    const present = [...new Set(word)];
    const letters = [...present.filter((letter) => countOf(letter) > 1), ...pick(present.filter((letter) => countOf(letter) === 1), 2), ...pick(alphabet.filter((letter) => !word.includes(letter)), 2)];
    const split = isHeldOut(word, LETTER_COUNTS_HELD_OUT) ? "test" : "train";
    return letters.map((letter) => {
      const count = countOf(letter);
      return { question: `How many times does the letter "${letter}" appear in the word "${word}"?`, answer: String(count), cluster: count >= 3 ? "3+" : String(count), split };
    });
  });
  const order = new RandomStream("chat-task-order\u241fletter-counts");
  for (let index = questions.length - 1; index > 0; index--) {
    const other = order.integer(index + 1);
    [questions[index], questions[other]] = [questions[other] as LetterCountQuestion, questions[index] as LetterCountQuestion];
  }
  return questions;
}
