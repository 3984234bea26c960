import type { Messages } from "../../core/schemas/message.js";
import type { AnswerGrade, Riddle, RiddleValidity, SolverAnswer } from "../riddle-contracts.js";

const PIANO: Riddle = {
  riddle: "What has keys but opens no locks?",
  solution: "a piano",
  solutionRationale: "A piano has keys, and they open nothing.",
  tags: ["wordplay"],
  difficultyGuessPct: 50,
  gradingRules: "any keyboard instrument is correct",
};
const TOWEL = { riddle: "What gets wetter the more it dries?", solution: "a towel", gradingRules: "a towel or a cloth is correct" };
const TOWEL_ANSWER: SolverAnswer = { finalAnswer: "a towel", confidence: 0.8, checks: ["a towel dries you and gets wet"], helpRequest: { needed: false, whatITried: "", whereIAmStuck: "" } };
const VALID: RiddleValidity = { valid: true, notes: "a towel gets wet as it dries" };
const WRONG: AnswerGrade = { correct: false, notes: "a sponge is not a towel" };
const RIGHT: AnswerGrade = { correct: true, notes: "same object" };

const turn = (user: string, assistant: object): Messages => [
  { role: "user", content: user },
  { role: "assistant", content: JSON.stringify(assistant) },
];

/**
 * The free-form domain's worked exchanges (`freeForm.workedExamples`): for
 * each request, earlier turns asking what it asks and answering in the
 * compact JSON its grammar writes. The riddler's riddle is not the solvers':
 * a solver never sees a riddle and its answer together.
 */
export const FREE_FORM_EXAMPLES: Readonly<Record<"riddler" | "solver" | "validity" | "grade", Messages>> = {
  riddler: turn("Target: 50% of 4 solvers solve it.\nWrite one new riddle.", PIANO),
  solver: turn(`Instructions: Read every word literally; the answer is in the wording.\nRiddle: ${TOWEL.riddle}`, TOWEL_ANSWER),
  validity: turn(JSON.stringify({ riddle: TOWEL.riddle, solution: TOWEL.solution, rationale: "a towel takes the water from what it dries", gradingRules: TOWEL.gradingRules }), VALID),
  grade: [...turn(JSON.stringify({ ...TOWEL, answer: "a sponge" }), WRONG), ...turn(JSON.stringify({ ...TOWEL, answer: "towel" }), RIGHT)],
};
