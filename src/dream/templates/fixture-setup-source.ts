/** A setup program that writes these files (name → text) into its working directory. */
export function fixtureSetupSource(files: Readonly<Record<string, string>>): string {
  const writes = Object.entries(files).map(([name, text]) => `fs.writeFileSync(${JSON.stringify(name)}, ${JSON.stringify(text)});`);
  return ['const fs = require("fs");', ...writes, ""].join("\n");
}
