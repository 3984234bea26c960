import { InvalidInputError } from "../../core/errors/index.js";

/**
 * Byte-token code met a model of another vocabulary: what it would write or
 * read as byte ids (id − 3 = a byte) means other text in that model's
 * vocabulary, so it is refused before anything runs or is written.
 */
export class ByteVocabularyRequiredError extends InvalidInputError {
  override readonly name = "ByteVocabularyRequiredError";
  constructor(
    /** The flag that named the model, or that must name one (`--from`, `--model`). */
    field: string,
    readonly modelPath: string,
    /** Tokens in the model's vocabulary. */
    readonly vocabularySize: number,
    /** What works instead, said to the user. */
    instead: string,
  ) {
    super(field, instead, `${modelPath}: a ${vocabularySize}-token vocabulary that is not the byte vocabulary of project-made models (one token a byte)`);
  }
}
