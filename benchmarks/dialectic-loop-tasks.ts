import { InvalidInputError } from "../src/core/errors/index.js";
import { DIALECTIC_TASKS } from "../src/tasks/dialectic/dialectic-environment.js";

const TERMS = ["an algorithm", "a variable", "a function", "a compiler", "a database", "a network", "an API", "a cache", "a unit test", "a bug"];
const WHYS = ["ice floats on water", "leaves change colour in autumn", "the sea is salty", "bread rises", "metal feels cold", "we see lightning before thunder", "the moon has phases", "rivers bend", "cats purr", "onions make people cry"];
const TOPICS = ["code review", "documentation", "refactoring", "pair programming", "version control", "logging", "error messages", "small commits", "type checking", "benchmarks"];
const SUBJECTS = ["rain", "the sea", "a city at night", "winter", "a garden", "the moon", "a train", "coffee", "a library", "the wind"];
const PRACTICES = ["writing a commit message", "naming a function", "writing a test", "handling an error", "reviewing code", "writing a comment", "choosing a data structure", "splitting a function", "logging an event", "deprecating an API"];

/**
 * Short tasks a critic can judge, for measuring the loop on a model: the environment's six (DIALECTIC_TASKS) and
 * fifty more of the same five kinds, in a fixed order. The first `count`; more than there are is refused.
 */
export function dialecticLoopTasks(count: number): string[] {
  const tasks = [
    ...DIALECTIC_TASKS,
    ...TERMS.map((term) => `Define ${term} in one sentence.`),
    ...WHYS.map((why) => `Explain in one sentence why ${why}.`),
    ...TOPICS.map((topic) => `Suggest a title for a blog post about ${topic}.`),
    ...SUBJECTS.map((subject) => `Write a two-line poem about ${subject}.`),
    ...PRACTICES.map((practice) => `Give one rule for ${practice}, with an example.`),
  ];
  if (count > tasks.length) throw new InvalidInputError("--tasks", `an integer from 1 to ${tasks.length} (the tasks written)`, count);
  return tasks.slice(0, count);
}
