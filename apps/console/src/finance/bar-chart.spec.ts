import { barChart } from './bar-chart';

describe('barChart', () => {
  const chart = barChart({
    id: 'c',
    title: 'Daily <EUR>',
    description: 'Bars per day',
    days: ['2026-11-01', '2026-11-02'],
    series: [
      { key: 'captured', label: 'Captured', values: [10_000, 5_000] },
      { key: 'net', label: 'Net', values: [-2_500, 0] },
    ],
  }).value.replace(/\s+/g, ' '); // attributes as one line, as a browser reads them

  it('is an image titled and described for assistive technology, its text escaped', () => {
    expect(chart).toContain('role="img" aria-labelledby="c-title c-desc"');
    expect(chart).toContain('<title id="c-title">Daily &lt;EUR&gt;</title>');
    expect(chart).toContain('<desc id="c-desc">Bars per day</desc>');
  });

  it('draws a bar per day and series, each titled with its amount as a decimal', () => {
    const titles = [...chart.matchAll(/<rect[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(titles).toEqual([
      '2026-11-01 Captured: 10.00',
      '2026-11-01 Net: -2.50',
      '2026-11-02 Captured: 5.00',
      '2026-11-02 Net: 0.00',
    ]);
  });

  it('scales bars to the largest value, negative ones below the zero line', () => {
    const heights = [...chart.matchAll(/y="([\d.]+)" width="9" height="([\d.]+)"/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    const [captured, net, half] = heights;
    expect(captured[1]).toBeCloseTo(half[1] * 2, 0);
    expect(net[1]).toBeCloseTo(captured[1] / 4, 0);
    expect(net[0]).toBeCloseTo(captured[0] + captured[1], 0); // starts at the zero line
  });
});
