// The candidate chat tasks screened on SmolLM2-135M-Instruct (issue 37): verifiable questions with exact numeric
// answers, each row {question, answer, cluster, split}. `split` is the held-out rule committed before the screen:
// the core fraction rule over a key that keeps related rows on one side (a word for letter counts, so no held-out
// word is ever trained on), salted by the task's name. Rows are shuffled by a seeded stream, so the first held-out
// rows an evaluation takes are a random sample of them.
import { isHeldOut, parseHeldOutRule } from "../../src/core/held-out/held-out-rule.js";
import type { JsonObject } from "../../src/core/json.js";
import { RandomStream } from "../../src/core/random/random-stream.js";
import { letterCountQuestions } from "./letter-count-questions.js";

export interface ChatTaskCandidate {
  name: string;
  /** What is asked, for the screen's record. */
  description: string;
  rows: JsonObject[];
  /** Two worked examples (none of them a row) asked before each question: the form of the answer, `Answer: <n>` last. */
  fewShot: { user: string; assistant: string }[];
}

interface Question {
  question: string;
  answer: number;
  cluster: string;
  /** The rows sharing a key share a side of the split. */
  key: string;
}

const NAMES = ["Tom", "Anna", "Sam", "Lily", "Ben", "Mia", "Omar", "Zoe"];
const THINGS = ["apples", "books", "pencils", "cookies", "marbles", "stickers", "stamps", "shells"];

/** Every a plus b for two-digit a and b, asked in words; clustered by whether the units carry and the sum reaches 100. */
function sumsInWords(): Question[] {
  const questions: Question[] = [];
  for (let a = 10; a < 100; a++) {
    for (let b = 10; b < 100; b++) {
      const question = `What is ${a} plus ${b}?`;
      questions.push({ question, answer: a + b, cluster: `${(a % 10) + (b % 10) >= 10 ? "carry" : "no-carry"}${a + b >= 100 ? "-hundreds" : ""}`, key: question });
    }
  }
  return questions;
}

/** One-step stories: someone has n things and gets or gives away m of them. */
function wordProblems(random: RandomStream): Question[] {
  const questions = new Map<string, Question>();
  while (questions.size < 3600) {
    const name = NAMES[random.integer(NAMES.length)] as string;
    const things = THINGS[random.integer(THINGS.length)] as string;
    const gets = random.next() < 0.5;
    const first = 2 + random.integer(19);
    const second = gets ? 2 + random.integer(19) : 1 + random.integer(first - 1);
    const question = gets
      ? `${name} has ${first} ${things}. ${name} gets ${second} more ${things}. How many ${things} does ${name} have now?`
      : `${name} has ${first} ${things} and gives away ${second}. How many ${things} are left?`;
    questions.set(question, { question, answer: gets ? first + second : first - second, cluster: gets ? "gets" : "gives-away", key: question });
  }
  return [...questions.values()];
}

/** Two-step stories: someone has n things, gets m more and gives k away (the one-step stories' headroom was short). */
function twoStepProblems(random: RandomStream): Question[] {
  const questions = new Map<string, Question>();
  while (questions.size < 3600) {
    const name = NAMES[random.integer(NAMES.length)] as string;
    const things = THINGS[random.integer(THINGS.length)] as string;
    const first = 2 + random.integer(19);
    const second = 2 + random.integer(19);
    const third = 1 + random.integer(first + second - 1);
    const question = `${name} has ${first} ${things}. ${name} gets ${second} more and then gives away ${third}. How many ${things} does ${name} have now?`;
    questions.set(question, { question, answer: first + second - third, cluster: third > first ? "gives-more-than-first" : "gives-at-most-first", key: question });
  }
  return [...questions.values()];
}

/** How many of a small unit are in n of a larger one. */
function unitConversions(): Question[] {
  const units: [string, string, number][] = [
    ["minutes", "hours", 60],
    ["seconds", "minutes", 60],
    ["centimeters", "meters", 100],
    ["grams", "kilograms", 1000],
    ["days", "weeks", 7],
    ["months", "years", 12],
    ["hours", "days", 24],
  ];
  return units.flatMap(([small, large, factor]) =>
    Array.from({ length: 19 }, (_, index) => {
      const n = index + 2;
      const question = `How many ${small} are in ${n} ${large}?`;
      return { question, answer: n * factor, cluster: `${small}-per-${large.replace(/s$/, "")}`, key: question };
    }),
  );
}

/** The rows of a candidate: shuffled by a seeded stream, each with its side of the split. */
function rowsOf(name: string, questions: readonly Question[], fraction: number): JsonObject[] {
  const rule = parseHeldOutRule({ rule: "fraction", fraction, salt: `selfplay-chat-task-${name}\u241f` });
  const random = new RandomStream(`chat-task-order\u241f${name}`);
  const shuffled = [...questions];
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = random.integer(index + 1);
    [shuffled[index], shuffled[other]] = [shuffled[other] as Question, shuffled[index] as Question];
  }
  return shuffled.map(({ question, answer, cluster, key }) => ({ question, answer: String(answer), cluster, split: isHeldOut(key, rule) ? "test" : "train" }));
}

// Stories outside the generated ones (no name or thing of theirs, numbers beyond theirs).
const WORD_PROBLEM_EXAMPLES = [
  { user: "Kim has 30 cards. Kim gets 12 more cards. How many cards does Kim have now?", assistant: "30 + 12 = 42.\nAnswer: 42" },
  { user: "Leo has 45 coins and gives away 21. How many coins are left?", assistant: "45 - 21 = 24.\nAnswer: 24" },
];

const TWO_STEP_EXAMPLES = [
  { user: "Kim has 30 cards. Kim gets 12 more and then gives away 15. How many cards does Kim have now?", assistant: "30 + 12 = 42. 42 - 15 = 27.\nAnswer: 27" },
  { user: "Leo has 45 coins. Leo gets 21 more and then gives away 50. How many coins does Leo have now?", assistant: "45 + 21 = 66. 66 - 50 = 16.\nAnswer: 16" },
];

// Words not in the list, one letter present twice, one absent.
const LETTER_COUNT_EXAMPLES = [
  { user: 'How many times does the letter "o" appear in the word "door"?', assistant: 'd-o-o-r has 2 "o".\nAnswer: 2' },
  { user: 'How many times does the letter "z" appear in the word "cat"?', assistant: 'c-a-t has 0 "z".\nAnswer: 0' },
];

/**
 * The one-step and two-step stories together, each row on the side of the split its own candidate put it (committed
 * before either screen), clusters prefixed by the kind, shuffled together by a seeded stream; one worked example of
 * each kind. Neither alone met the screen (one step: pass@8 1.76× greedy; two steps: greedy 8%): together the easy
 * stories keep greedy accuracy in the band and the hard ones leave the headroom.
 */
function oneOrTwoStepRows(oneStep: readonly JsonObject[], twoStep: readonly JsonObject[]): JsonObject[] {
  const rows: JsonObject[] = [...oneStep.map((row) => ({ ...row, cluster: `one-step:${String(row["cluster"])}` })), ...twoStep.map((row) => ({ ...row, cluster: `two-step:${String(row["cluster"])}` }))];
  const random = new RandomStream("chat-task-order\u241fone-or-two-step-problems");
  for (let index = rows.length - 1; index > 0; index--) {
    const other = random.integer(index + 1);
    [rows[index], rows[other]] = [rows[other] as JsonObject, rows[index] as JsonObject];
  }
  return rows;
}

/** The screened candidates, in the screen's order. */
export function chatTaskCandidates(): ChatTaskCandidate[] {
  const oneStep = rowsOf("word-problems", wordProblems(new RandomStream("word-problems")), 0.1);
  const twoStep = rowsOf("two-step-problems", twoStepProblems(new RandomStream("two-step-problems")), 0.1);
  return [
    { name: "letter-counts", description: 'How many times does the letter "l" appear in the word "balloon"? (408 common words, a quarter of the words held out)', rows: letterCountQuestions(), fewShot: LETTER_COUNT_EXAMPLES },
    { name: "sums-in-words", description: "What is 47 plus 38? (two-digit a, b; a tenth held out)", rows: rowsOf("sums-in-words", sumsInWords(), 0.1), fewShot: [{ user: "What is 7 plus 135?", assistant: "7 + 135 = 142.\nAnswer: 142" }, { user: "What is 250 plus 9?", assistant: "250 + 9 = 259.\nAnswer: 259" }] },
    { name: "word-problems", description: "Tom has 7 apples. Tom gets 5 more apples. How many apples does Tom have now? / … gives away 3. How many … are left? (3,600 stories; a tenth held out)", rows: oneStep, fewShot: WORD_PROBLEM_EXAMPLES },
    { name: "two-step-problems", description: "Tom has 7 apples. Tom gets 5 more and then gives away 9. How many apples does Tom have now? (3,600 stories; a tenth held out)", rows: twoStep, fewShot: TWO_STEP_EXAMPLES },
    { name: "one-or-two-step-problems", description: "the word-problems and two-step-problems stories together, each on its own side of the split (7,200 stories, 748 held out); worked examples: one of each kind", rows: oneOrTwoStepRows(oneStep, twoStep), fewShot: [WORD_PROBLEM_EXAMPLES[1], TWO_STEP_EXAMPLES[0]] as ChatTaskCandidate["fewShot"] },
    { name: "unit-conversions", description: "How many minutes are in 5 hours? (7 unit pairs × 2–20; half held out)", rows: rowsOf("unit-conversions", unitConversions(), 0.5), fewShot: [{ user: "How many seconds are in 30 minutes?", assistant: "30 × 60 = 1800.\nAnswer: 1800" }, { user: "How many days are in 40 weeks?", assistant: "40 × 7 = 280.\nAnswer: 280" }] },
  ];
}
