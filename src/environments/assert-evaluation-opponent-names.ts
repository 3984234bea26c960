import { InvalidInputError } from "../core/errors/index.js";

/** What an opponent's name may be: it is a segment of its figures' names (`league.v3.x.win`), so no dot. */
const EVALUATION_OPPONENT_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Refuses opponent names (EvaluationOpponent.name) that are not
 * EVALUATION_OPPONENT_NAME or that repeat: two opponents of one name would
 * report into the same figures. `field` names the input at fault
 * (`opponents`, `--against`), `naming` how its names were made, when they
 * were not typed (a file's name).
 */
export function assertEvaluationOpponentNames(names: readonly string[], field: string, naming = ""): void {
  const allowed = `opponent names of letters, digits, - and _, each once${naming}`;
  for (const [index, name] of names.entries()) {
    if (!EVALUATION_OPPONENT_NAME.test(name)) throw new InvalidInputError(field, allowed, name);
    if (names.indexOf(name) !== index) throw new InvalidInputError(field, `${allowed}: two opponents are named "${name}"`, name);
  }
}
