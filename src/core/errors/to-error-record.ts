/** Serialisable form of an error, as recorded in rollouts and metrics. */
export interface ErrorRecord {
  name: string;
  message: string;
}

/** What a caught value is recorded as; a thrown non-Error keeps its text under the name `NonErrorThrown`. */
export function toErrorRecord(error: unknown): ErrorRecord {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "NonErrorThrown", message: String(error) };
}
