/** A named series of (step, value) points. */
export interface PlotSeries {
  name: string;
  points: readonly { step: number; value: number }[];
  color: string;
}

export interface TrainingReportSvgOptions {
  /** The x axis' caption from its largest value. Default `step (of N)`; the points' `step` may be any x, e.g. seconds. */
  xLabel?: (last: number) => string;
}

const WIDTH = 720;
const HEIGHT = 360;
const MARGIN = { left: 56, right: 150, top: 28, bottom: 40 };

/**
 * A self-contained SVG line chart of training curves over steps, on one 0–1
 * axis (rewards, solve rates and accuracies all live there; values outside
 * are clamped). Written with the run so a report needs no plotting package.
 */
export function trainingReportSvg(title: string, series: readonly PlotSeries[], options: TrainingReportSvgOptions = {}): string {
  const steps = series.flatMap((entry) => entry.points.map((point) => point.step));
  const lastStep = Math.max(1, ...steps);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (step: number) => MARGIN.left + (step / lastStep) * plotWidth;
  const y = (value: number) => MARGIN.top + (1 - Math.min(1, Math.max(0, value))) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${MARGIN.left}" y="18" font-size="14">${escapeXml(title)}</text>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`);
  }
  const xLabel = options.xLabel ?? ((last: number) => `step (of ${last})`);
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 8}" text-anchor="middle">${escapeXml(xLabel(lastStep))}</text>`);
  series.forEach((entry, index) => {
    if (entry.points.length > 0) {
      const path = entry.points.map((point, position) => `${position === 0 ? "M" : "L"}${x(point.step).toFixed(1)},${y(point.value).toFixed(1)}`).join(" ");
      parts.push(`<path d="${path}" fill="none" stroke="${entry.color}" stroke-width="2"/>`);
      for (const point of entry.points) parts.push(`<circle cx="${x(point.step).toFixed(1)}" cy="${y(point.value).toFixed(1)}" r="2" fill="${entry.color}"/>`);
    }
    const legendY = MARGIN.top + 16 + index * 18;
    parts.push(`<line x1="${WIDTH - MARGIN.right + 12}" x2="${WIDTH - MARGIN.right + 32}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${entry.color}" stroke-width="2"/>`);
    parts.push(`<text x="${WIDTH - MARGIN.right + 38}" y="${legendY}">${escapeXml(entry.name)}</text>`);
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
