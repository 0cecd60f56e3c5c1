import { formatAmount, type Thousandths } from '@gateway/domain';
import { html, type Html } from '@gateway/order-view';

/** A series of the chart: its name, its class (the stylesheet's colour) and one value per day. */
export interface ChartSeries {
  readonly label: string;
  readonly key: string;
  readonly values: readonly Thousandths[];
}

const HEIGHT = 240;
const TOP = 16;
const BOTTOM = 28;
const LEFT = 80;
const BAR = 10;
const GAP = 14;

/**
 * A grouped bar chart drawn on the server as SVG (no script, no external asset): a group of bars
 * per day, one per series, from a zero line (negative values go below it). Titled and described
 * for assistive technology; each bar's <title> gives its day, series and amount, and the page puts
 * the same numbers in a table beside it.
 */
export function barChart(options: {
  id: string;
  title: string;
  description: string;
  days: readonly string[];
  series: readonly ChartSeries[];
}): Html {
  const { id, title, description, days, series } = options;
  const all = series.flatMap((s) => s.values);
  const max = Math.max(0, ...all);
  const min = Math.min(0, ...all);
  const span = max - min || 1;
  const plot = HEIGHT - TOP - BOTTOM;
  const y = (value: number) => TOP + ((max - value) / span) * plot;
  const group = series.length * BAR + GAP;
  const width = LEFT + days.length * group + GAP;
  const zero = y(0);
  const bars = days.flatMap((day, d) =>
    series.map((s, i) => {
      const value = s.values[d] ?? 0;
      const top = Math.min(y(value), zero);
      const x = LEFT + d * group + i * BAR;
      return html`<rect
        class="bar ${s.key}"
        x="${x}"
        y="${round(top)}"
        width="${BAR - 1}"
        height="${round(Math.abs(y(value) - zero))}"
        ><title>${day} ${s.label}: ${formatAmount(value)}</title></rect
      >`;
    }),
  );
  const labels = days.map(
    (day, d) =>
      html`<text x="${LEFT + d * group + (group - GAP) / 2}" y="${HEIGHT - 8}" text-anchor="middle"
        >${day.slice(5)}</text
      >`,
  );
  return html`<svg
      class="chart"
      role="img"
      aria-labelledby="${id}-title ${id}-desc"
      viewBox="0 0 ${width} ${HEIGHT}"
      width="${width}"
      height="${HEIGHT}"
    >
      <title id="${id}-title">${title}</title>
      <desc id="${id}-desc">${description}</desc>
      <text x="${LEFT - 6}" y="${round(y(max)) + 4}" text-anchor="end">${formatAmount(max)}</text>
      ${min < 0 ? html`<text x="${LEFT - 6}" y="${round(y(min)) + 4}" text-anchor="end">${formatAmount(min)}</text>` : ''}
      <line class="axis" x1="${LEFT}" x2="${width}" y1="${round(zero)}" y2="${round(zero)}" />
      <text x="${LEFT - 6}" y="${round(zero) + 4}" text-anchor="end">0</text>
      ${bars} ${labels}
    </svg>
    <ul class="legend">
      ${series.map((s) => html`<li><span class="swatch ${s.key}" aria-hidden="true"></span>${s.label}</li>`)}
    </ul>`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
