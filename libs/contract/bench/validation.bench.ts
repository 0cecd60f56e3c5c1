/**
 * Validation cost per request for both engines, after warm-up, in plain Node (jest's module
 * sandbox distorts timings). After `npm run build`: `node dist/bench/validation.bench.js`. Without
 * building everything:
 *
 *   npx tsc libs/contract/bench/validation.bench.ts --outDir .tmp/contract-bench --rootDir . \
 *     --module commonjs --target es2022 --esModuleInterop --skipLibCheck --types node --strict
 *   node .tmp/contract-bench/libs/contract/bench/validation.bench.js
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { resolveContract, validateRequest, type OperationContract } from '../src';
import type { EngineName } from '../src/validate';
import { fullAuthorizeBody } from '../test/support/full-authorize.fixture';

export interface BenchBody {
  readonly label: string;
  readonly body: unknown;
  /** Whether the body conforms: checked before timing, so a broken fixture is not measured. */
  readonly valid: boolean;
}

/** The bodies measured: every group populated, a minimal card payment, and an error deep inside. */
export function benchBodies(full: Record<string, unknown>): BenchBody[] {
  return [
    { label: 'AUTHORIZE, every group populated (valid)', body: full, valid: true },
    {
      label: 'AUTHORIZE, minimal card payment (valid)',
      body: {
        apiOperation: 'AUTHORIZE',
        order: { amount: '10.00', currency: 'USD' },
        sourceOfFunds: {
          type: 'CARD',
          provided: { card: { number: '5123450000000008', expiry: { month: '1', year: '39' } } },
        },
      },
      valid: true,
    },
    {
      label: 'AUTHORIZE, every group, one bad amount',
      body: { ...full, order: { ...(full.order as object), amount: '73.5001' } },
      valid: false,
    },
  ];
}

/** Microseconds per call, after a warm-up that lets the JIT settle. */
function measure(run: () => unknown, budgetMs: number): number {
  for (let i = 0; i < 5_000; i++) run();
  let iterations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    for (let i = 0; i < 1_000; i++) run();
    iterations += 1_000;
    elapsed = performance.now() - start;
  }
  return (elapsed * 1000) / iterations;
}

/** Times every body with every engine and prints one line per body. */
export function runValidationBench(
  validate: (contract: OperationContract, body: unknown, engine: EngineName) => { ok: boolean },
  contract: OperationContract,
  bodies: readonly BenchBody[],
  budgetMs = 1_500,
): void {
  const engines: EngineName[] = ['class-validator', 'compiled'];
  console.log(`${''.padEnd(44)} ${engines.map((e) => e.padStart(16)).join('')}   (µs per call)`);
  for (const { label, body, valid } of bodies) {
    for (const engine of engines) {
      if (validate(contract, body, engine).ok !== valid)
        throw new Error(`${label}: the ${engine} engine does not judge it as expected`);
    }
    const micros = engines.map((engine) =>
      measure(() => validate(contract, body, engine), budgetMs),
    );
    console.log(`${label.padEnd(44)} ${micros.map((m) => m.toFixed(1).padStart(16)).join('')}`);
  }
}

if (require.main === module) {
  runValidationBench(
    validateRequest,
    resolveContract('AUTHORIZE', 39) as OperationContract,
    benchBodies(fullAuthorizeBody()),
  );
}
