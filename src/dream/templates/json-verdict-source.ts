/**
 * The end of a JSON-answer validator: reads `outputFile`, compares it with the
 * `expected` the validator computed (numbers within 0.005, object keys in any
 * order, arrays in order) and exits 1 naming the first wrong place — never the
 * expected value, which the solver would otherwise read off the feedback.
 */
export function jsonVerdictSource(outputFile: string): string {
  const name = JSON.stringify(outputFile);
  return `let actual;
try {
  actual = JSON.parse(fs.readFileSync(${name}, "utf8"));
} catch (error) {
  console.error(${name} + " is missing or not JSON: " + error.message);
  process.exit(1);
}
function mismatch(got, want, path) {
  if (typeof want === "number") return typeof got === "number" && Math.abs(got - want) <= 0.005 ? null : path;
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return path + " (length)";
    for (let index = 0; index < want.length; index++) {
      const wrong = mismatch(got[index], want[index], path + "[" + index + "]");
      if (wrong !== null) return wrong;
    }
    return null;
  }
  if (want !== null && typeof want === "object") {
    if (got === null || typeof got !== "object" || Array.isArray(got)) return path;
    const keys = Object.keys(want).sort();
    if (Object.keys(got).sort().join("\\u0000") !== keys.join("\\u0000")) return path + " (keys)";
    for (const key of keys) {
      const wrong = mismatch(got[key], want[key], path + "." + key);
      if (wrong !== null) return wrong;
    }
    return null;
  }
  return got === want ? null : path;
}
const wrong = mismatch(actual, expected, "answer");
if (wrong !== null) {
  console.error(${name} + ": wrong value at " + wrong);
  process.exit(1);
}
`;
}
