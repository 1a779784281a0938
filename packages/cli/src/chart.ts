import asciichart from 'asciichart';
import { localTime } from './tables.js';

/** One line of a chart: its name and its values over time (null where there is no data). */
export interface ChartSeries {
  label: string;
  points: { time: number; value: number | null }[];
}

export interface ChartOptions {
  /** Characters available, y-axis labels included. */
  width: number;
  /** Rows of the plot. @default 10 */
  height?: number;
  color: boolean;
  /** How a y value is written on the axis, e.g. `412 ms`. */
  format: (value: number) => string;
}

const COLORS = [
  asciichart.cyan,
  asciichart.magenta,
  asciichart.yellow,
  asciichart.green,
  asciichart.blue,
  asciichart.red,
];

/** `points` cut to at most `width` values: bucket means, nulls ignored; a bucket with no data repeats the last value. */
function fit(points: ChartSeries['points'], width: number): number[] {
  const buckets = Math.min(width, points.length);
  const out: number[] = [];
  let last: number | undefined;
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * points.length) / buckets);
    const to = Math.floor(((b + 1) * points.length) / buckets);
    const values = points
      .slice(from, to)
      .flatMap((p) => (p.value === null || !Number.isFinite(p.value) ? [] : [p.value]));
    const value = values.length > 0 ? values.reduce((a, v) => a + v, 0) / values.length : last;
    if (value !== undefined) last = value;
    out.push(value ?? Number.NaN);
  }
  // Leading gaps take the first value there is.
  const first = out.find((v) => !Number.isNaN(v)) ?? 0;
  return out.map((v) => (Number.isNaN(v) ? first : v));
}

/**
 * A line chart for the terminal (asciichart): the y axis in the metric's unit, the first and last
 * time under it. Several series share one chart in colour, with a legend; without colour they
 * cannot be told apart there, so each gets its own chart. Undefined when there is nothing to draw.
 */
export function renderChart(title: string, series: ChartSeries[], options: ChartOptions): string | undefined {
  const drawn = series.filter((s) => s.points.some((p) => p.value !== null));
  if (drawn.length === 0) return undefined;
  if (drawn.length > 1 && !options.color) {
    return drawn.map((s) => plotOne(`${title}: ${s.label}`, [s], options)).join('\n');
  }
  return plotOne(title, drawn, options);
}

function plotOne(title: string, drawn: ChartSeries[], options: ChartOptions): string {
  const all = drawn.flatMap((s) => s.points.flatMap((p) => (p.value === null ? [] : [p.value])));
  const min = Math.min(...all);
  const max = Math.max(...all);
  const height = options.height ?? 10;
  // Every label on the axis, so that they all line up.
  const ticks = Array.from({ length: height + 1 }, (_, i) => min + ((max - min) * i) / height);
  const labelWidth = Math.max(...ticks.map((v) => options.format(v).length)) + 1;
  const plotWidth = Math.max(10, options.width - labelWidth - 3);
  const lines = drawn.map((s) => fit(s.points, plotWidth));
  const plot = asciichart.plot(lines, {
    height,
    min,
    max,
    format: (v: number) => options.format(v).padStart(labelWidth),
    ...(options.color ? { colors: drawn.map((_, i) => COLORS[i % COLORS.length]) } : {}),
  });
  const times = drawn.flatMap((s) => s.points.map((p) => p.time));
  const start = localTime(Math.min(...times));
  const end = localTime(Math.max(...times));
  const axisIndent = ' '.repeat(labelWidth + 2);
  const span = Math.max(...lines.map((l) => l.length));
  const under =
    axisIndent.length + start.length + end.length + 1 <= Math.max(options.width, axisIndent.length + span)
      ? `${axisIndent}${start}${' '.repeat(Math.max(1, span - start.length - end.length))}${end}`
      : `${start} →\n${end}`;
  const legend =
    drawn.length > 1
      ? `\n${axisIndent}${drawn.map((s, i) => `${COLORS[i % COLORS.length]}──${asciichart.reset} ${s.label}`).join('   ')}`
      : '';
  return `${title}\n${plot}\n${under}${legend}\n`;
}
