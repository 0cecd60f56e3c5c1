/**
 * The console's one stylesheet, served at /console.css (CSP default-src 'self': no inline style).
 * Sizes in rem and em so the pages reflow at 200 % zoom; focus always visible; status badges carry
 * their text, colour only repeats it.
 */
export const STYLESHEET = `
:root { color-scheme: light; --ink: #111827; --muted: #4b5563; --line: #d1d5db; --accent: #1d4ed8; }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; color: var(--ink); background: #f9fafb; }
a { color: var(--accent); }
:focus-visible { outline: 0.2rem solid #f59e0b; outline-offset: 0.15rem; }
.skip { position: absolute; left: -100rem; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: 0.5rem 1rem; z-index: 1; }
header { background: #0f172a; color: #fff; padding: 0.5rem 1.5rem; display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; align-items: center; }
header a { color: #fff; }
.brand { font-weight: 700; margin: 0; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; margin: 0; padding: 0; }
nav a[aria-current='page'] { font-weight: 700; text-decoration-thickness: 0.2em; }
.who { margin-left: auto; display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
main { padding: 1rem 1.5rem 3rem; max-width: 90rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
form.search { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0.75rem 1rem; align-items: start; margin-bottom: 1.5rem; }
label, .label-space { display: block; font-weight: 600; font-size: 0.9rem; min-height: 1.35em; }
input, select, button { font: inherit; padding: 0.35rem 0.5rem; border: 0.0625rem solid #6b7280; border-radius: 0.25rem; width: 100%; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; width: auto; }
header button { background: transparent; border-color: #fff; }
.hint { color: var(--muted); font-size: 0.85rem; margin: 0; }
.errors { border: 0.125rem solid #b91c1c; background: #fef2f2; padding: 0.5rem 1rem; border-radius: 0.25rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
caption { text-align: left; font-weight: 600; padding: 0.5rem 0; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 0.0625rem solid var(--line); white-space: nowrap; }
td.money, th.money { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 0.5em; border-radius: 1em; font-size: 0.85em; font-weight: 600; border: 0.0625rem solid; }
.badge.good { background: #ecfdf5; color: #065f46; }
.badge.bad { background: #fef2f2; color: #991b1b; }
.badge.warn { background: #fffbeb; color: #92400e; }
.badge.neutral { background: #f3f4f6; color: #374151; }
.badge.cause-merchant { background: #eff6ff; color: #1e3a8a; }
.badge.cause-payer { background: #f5f3ff; color: #4c1d95; }
.badge.cause-acquirer { background: #fffbeb; color: #92400e; }
.badge.cause-gateway { background: #f3f4f6; color: #374151; }
tr.chosen { background: #fef9c3; }
.notice { border: 0.125rem solid #047857; background: #ecfdf5; padding: 0.5rem 1rem; border-radius: 0.25rem; }
.as-of { border: 0.125rem solid #ca8a04; background: #fefce8; padding: 0.5rem 1rem; border-radius: 0.25rem; }
details { background: #fff; border: 0.0625rem solid var(--line); margin: 0.5rem 0; padding: 0.25rem 0.75rem; }
summary { cursor: pointer; font-weight: 600; }
pre { overflow-x: auto; font-size: 0.85rem; }
.pager { display: flex; gap: 1.5rem; margin-top: 1rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1.5rem; background: #fff; padding: 1rem; border: 0.0625rem solid var(--line); }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.signin { max-width: 24rem; margin: 3rem auto; background: #fff; padding: 1.5rem 2rem; border: 0.0625rem solid var(--line); border-radius: 0.5rem; }
.signin form > * + * { margin-top: 1rem; }
.subnav ul { list-style: none; display: flex; gap: 1.5rem; padding: 0; margin: 0 0 0.5rem; }
.subnav a[aria-current='true'] { font-weight: 700; }
.chart-and-table { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
.chart-and-table figure { margin: 0; max-width: 100%; overflow-x: auto; }
svg.chart { background: #fff; border: 0.0625rem solid var(--line); font-size: 0.7rem; max-width: none; }
svg.chart text { fill: var(--muted); }
svg.chart .axis { stroke: var(--ink); }
.bar.captured, .swatch.captured { fill: #1d4ed8; background: #1d4ed8; }
.bar.refunded, .swatch.refunded { fill: #b45309; background: #b45309; }
.bar.chargedBack, .swatch.chargedBack { fill: #b91c1c; background: #b91c1c; }
.bar.settled, .swatch.settled { fill: #047857; background: #047857; }
.bar.net, .swatch.net { fill: #6d28d9; background: #6d28d9; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0; }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; margin-right: 0.35rem; vertical-align: middle; }
.chart-and-table .table-wrap { flex: 1 1 24rem; }
`;
