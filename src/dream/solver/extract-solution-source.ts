/**
 * The JavaScript a solver reply carries: the last fenced code block (a model
 * that revises itself ends with the version it means); else, when the reply
 * opens a block it never closes (a chat model's program cut off at its token
 * budget), the code after that opening fence; else the whole reply. A reply
 * that is not JavaScript still goes to the sandbox: the run fails and its
 * error is fed back, which is the signal the solver learns from — for a cut-off
 * program its own SyntaxError, not one the fence line would cause.
 */
export function extractSolutionSource(reply: string): string {
  const blocks = [...reply.matchAll(/```[A-Za-z]*\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  const opening = blocks.length > 0 ? undefined : [...reply.matchAll(/```[A-Za-z]*\n/g)].at(-1);
  const source = blocks.length > 0 ? (blocks[blocks.length - 1] as string) : opening !== undefined ? reply.slice(opening.index + opening[0].length) : reply;
  return source.trim().length > 0 ? source : "// (the solver wrote nothing)\n";
}
