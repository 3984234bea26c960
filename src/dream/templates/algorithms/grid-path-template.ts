import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

/** Shortest path through a walled grid (breadth-first search); hard mode: one wall may be broken. */
export const gridPathTemplate: ChallengeTemplate = {
  key: "algorithms/grid-path",
  cluster: "algorithms",
  render({ sizeMultiplier, hardMode, stream }) {
    const side = 4 + 4 * sizeMultiplier;
    const rows: string[] = [];
    for (let row = 0; row < side; row++) {
      let line = "";
      for (let column = 0; column < side; column++) {
        const corner = (row === 0 && column === 0) || (row === side - 1 && column === side - 1);
        line += !corner && stream.integer(100) < 30 ? "#" : ".";
      }
      rows.push(line);
    }
    const breaks = hardMode ? 1 : 0;
    const twist = hardMode ? " You may step through at most one # cell on the way (it counts as a step like any other)." : "";
    return {
      prompt: `maze.txt is a grid of . (open) and # (wall), one row per line. Moving up, down, left or right one cell is one step. Write path.json: {"steps": the fewest steps from the top-left cell to the bottom-right cell, or -1 when there is no way}.${twist}`,
      setup: fixtureSetupSource({ "maze.txt": `${rows.join("\n")}\n` }),
      validator: `const fs = require("fs");
const grid = fs.readFileSync("maze.txt", "utf8").split("\\n").filter((line) => line !== "");
const breaks = ${breaks};
function shortest() {
  const height = grid.length;
  const width = grid[0].length;
  const seen = new Set(["0,0,0"]);
  let frontier = [[0, 0, 0]];
  for (let steps = 0; frontier.length > 0; steps++) {
    const next = [];
    for (const [row, column, used] of frontier) {
      if (row === height - 1 && column === width - 1) return steps;
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const r = row + dr;
        const c = column + dc;
        if (r < 0 || c < 0 || r >= height || c >= width) continue;
        const cost = used + (grid[r][c] === "#" ? 1 : 0);
        const key = r + "," + c + "," + cost;
        if (cost > breaks || seen.has(key)) continue;
        seen.add(key);
        next.push([r, c, cost]);
      }
    }
    frontier = next;
  }
  return -1;
}
const expected = { steps: shortest() };
${jsonVerdictSource("path.json")}`,
      outputFile: "path.json",
      referenceSolution: `const fs = require("fs");
const grid = fs.readFileSync("maze.txt", "utf8").trim().split("\\n");
const H = grid.length, W = grid[0].length, K = ${breaks};
const dist = new Map([["0|0|0", 0]]);
const queue = [[0, 0, 0]];
let answer = -1;
for (let head = 0; head < queue.length; head++) {
  const [r, c, k] = queue[head];
  const d = dist.get(r + "|" + c + "|" + k);
  if (r === H - 1 && c === W - 1) { answer = d; break; }
  for (const [nr, nc] of [[r + 1, c], [r - 1, c], [r, c + 1], [r, c - 1]]) {
    if (nr < 0 || nc < 0 || nr >= H || nc >= W) continue;
    const nk = k + (grid[nr][nc] === "#" ? 1 : 0);
    const key = nr + "|" + nc + "|" + nk;
    if (nk > K || dist.has(key)) continue;
    dist.set(key, d + 1);
    queue.push([nr, nc, nk]);
  }
}
fs.writeFileSync("path.json", JSON.stringify({ steps: answer }));
`,
    };
  },
};
