/**
 * Lower-case word and symbol tokens: identifiers and numbers are one token
 * each, any other non-space character is a token of its own, so copied code
 * (`row.split(",")`) and copied prose both show up as shared runs.
 */
export function lessonTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9_$]+|[^\sa-z0-9_$]/g) ?? [];
}
