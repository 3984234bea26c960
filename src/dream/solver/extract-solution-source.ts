/**
 * The JavaScript a solver reply carries: the last fenced code block (a model
 * that revises itself ends with the version it means), else the whole reply.
 * A reply that is not JavaScript still goes to the sandbox: the run fails and
 * its error is fed back, which is the signal the solver learns from.
 */
export function extractSolutionSource(reply: string): string {
  const blocks = [...reply.matchAll(/```[A-Za-z]*\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  const source = blocks.length > 0 ? (blocks[blocks.length - 1] as string) : reply;
  return source.trim().length > 0 ? source : "// (the solver wrote nothing)\n";
}
