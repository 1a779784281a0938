import { beforeAll, describe, expect, it } from 'vitest';
import { renderChart } from './chart.js';
import { formatMetric, parseTime, parseWindow } from './time-range.js';

beforeAll(() => {
  // Times under the chart are local: pin the zone so the snapshot is the same everywhere.
  process.env.TZ = 'UTC';
});

const START = Date.parse('2026-11-20T00:00:00Z');
const series = (label: string, values: (number | null)[]) => ({
  label,
  points: values.map((value, i) => ({ time: START + i * 15 * 60_000, value })),
});
const wave = Array.from({ length: 40 }, (_, i) => Math.round(200 + 150 * Math.sin(i / 4)));

describe('renderChart', () => {
  it('draws a series at a fixed width, its axis in the unit, the first and last time under it', () => {
    const chart = renderChart('Response Time p95', [series('all', wave)], {
      width: 60,
      height: 6,
      color: false,
      format: (v) => formatMetric(v, 'milliseconds'),
    });
    expect(chart).toMatchSnapshot();
    const lines = chart?.split('\n') ?? [];
    expect(lines[0]).toBe('Response Time p95');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(chart).toContain('2026-11-20 00:00:00 UTC');
    expect(chart).toContain('2026-11-20 09:45:00 UTC');
  });

  it('fits more points than columns by averaging, and fills gaps with the value before', () => {
    const long = Array.from({ length: 500 }, (_, i) => (i % 50 === 0 ? null : i));
    const chart =
      renderChart('n', [series('all', long)], { width: 40, height: 4, color: false, format: String }) ?? '';
    expect(Math.max(...chart.split('\n').map((l) => l.length))).toBeLessThanOrEqual(40);
    expect(
      renderChart('none', [series('all', [null, null])], { width: 40, color: false, format: String }),
    ).toBeUndefined();
  });

  it('without colour, gives each of several series its own chart', () => {
    const chart = renderChart(
      'p95',
      [
        series('eu-west-1', wave),
        series(
          'us-east-1',
          wave.map((v) => v + 50),
        ),
      ],
      {
        width: 60,
        height: 4,
        color: false,
        format: String,
      },
    );
    expect(chart).toContain('p95: eu-west-1\n');
    expect(chart).toContain('p95: us-east-1\n');
  });
});

describe('time arguments', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('reads unix seconds, ISO times and ages', () => {
    expect(parseTime('from', '1763856000', now)).toBe(1763856000_000);
    expect(parseTime('from', '2026-11-20T08:00:00Z', now)).toBe(Date.parse('2026-11-20T08:00:00Z'));
    expect(parseTime('from', '36h', now)).toBe(now - 36 * 3_600_000);
    expect(parseTime('from', '7d', now)).toBe(now - 7 * 86_400_000);
    expect(() => parseTime('from', 'yesterday', now)).toThrow('--from "yesterday" is not a time');
  });

  it('wants --from before --to, and --from with --to', () => {
    expect(parseWindow({}, now)).toBeUndefined();
    expect(parseWindow({ from: '2h' }, now)).toEqual({ from: now - 7_200_000, to: now });
    expect(() => parseWindow({ to: '2h' }, now)).toThrow('--to needs --from');
    expect(() => parseWindow({ from: '1h', to: '2h' }, now)).toThrow('must be before --to');
  });

  it('formats metrics in their unit', () => {
    expect(formatMetric(412.4, 'milliseconds')).toBe('412 ms');
    expect(formatMetric(99.456, 'percentage')).toBe('99.46 %');
    expect(formatMetric(null, 'milliseconds')).toBe('-');
    expect(formatMetric(40474.8, undefined)).toBe('40475');
    expect(formatMetric(9.9, undefined)).toBe('9.90');
  });
});
