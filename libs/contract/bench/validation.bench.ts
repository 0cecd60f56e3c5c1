/**
 * Validation cost per request, after warm-up, in plain Node (jest's module sandbox distorts timings).
 *
 *   npx tsc libs/contract/bench/validation.bench.ts --outDir .tmp/contract-bench --rootDir . \
 *     --module commonjs --target es2022 --esModuleInterop --skipLibCheck --types node
 *   node .tmp/contract-bench/libs/contract/bench/validation.bench.js
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { resolveContract, validateRequest } from '../src';
import { fullAuthorizeBody } from '../test/support/full-authorize.fixture';

function measure(label: string, run: () => unknown, iterations: number): void {
  for (let i = 0; i < 5_000; i++) run();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) run();
  const micros = ((performance.now() - start) * 1000) / iterations;
  console.log(`${label.padEnd(44)} ${micros.toFixed(1).padStart(7)} µs per call`);
}

const authorize = resolveContract('AUTHORIZE', 39)!;
const full = fullAuthorizeBody();
const minimal = {
  apiOperation: 'AUTHORIZE',
  order: { amount: '10.00', currency: 'USD' },
  sourceOfFunds: {
    type: 'CARD',
    provided: { card: { number: '5123450000000008', expiry: { month: '1', year: '39' } } },
  },
};
const invalid = { ...full, order: { ...(full.order as object), amount: '73.5001' } };

if (
  !validateRequest(authorize, full).ok ||
  !validateRequest(authorize, minimal).ok ||
  validateRequest(authorize, invalid).ok
) {
  throw new Error('bench bodies do not validate as expected');
}
measure('AUTHORIZE, every group populated (valid)', () => validateRequest(authorize, full), 50_000);
measure(
  'AUTHORIZE, minimal card payment (valid)',
  () => validateRequest(authorize, minimal),
  100_000,
);
measure(
  'AUTHORIZE, every group, one bad amount',
  () => validateRequest(authorize, invalid),
  20_000,
);
