import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { seedMonth } from './month-traffic';

/**
 * `npm run seed:month -- --gateway URL --merchant ID:PASSWORD [--merchant …] [--days 30]
 * [--orders-per-day 30] [--seed 19] [--out DIR]`
 *
 * A month of mixed traffic through a running gateway started with GATEWAY_CLOCK=manual
 * (`month-traffic.ts`; docs/ledger.md, "A month to close"), its settlement files written to DIR.
 */
const args: [string, string][] = [];
for (let i = 2; i < process.argv.length; i += 2)
  args.push([process.argv[i].replace(/^--/, ''), process.argv[i + 1]]);
const one = (name: string, fallback?: string) =>
  args.findLast(([key]) => key === name)?.[1] ?? fallback;
const merchants = Object.fromEntries(
  args.filter(([key]) => key === 'merchant').map(([, value]) => value.split(/:(.*)/s, 2)),
);

async function main(): Promise<void> {
  const baseUrl = one('gateway');
  if (!baseUrl || Object.keys(merchants).length === 0)
    throw new Error('give --gateway URL and at least one --merchant ID:PASSWORD');
  const outDir = resolve(one('out', 'settlement-files')!);
  mkdirSync(outDir, { recursive: true });
  const month = await seedMonth({
    baseUrl,
    merchants,
    days: Number(one('days', '30')),
    ordersPerDay: Number(one('orders-per-day', '30')),
    seed: Number(one('seed', '19')),
    outDir,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  console.log(
    `seeded ${month.orders.length} orders over ${month.days.length} days (${month.days[0]} to ${month.days.at(-1)}); ${month.files.length} settlement files in ${outDir}`,
  );
}

main().catch((error: Error) => {
  console.error(`seed month: ${error.message}`);
  process.exit(1);
});
