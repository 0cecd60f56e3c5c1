import 'reflect-metadata';
import { jsonShapeError } from '@gateway/contract';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { AuthLockout, type Merchant } from '@gateway/merchants';
import { LoadShedder } from '../apps/gateway/src/protection/load-shedder';
import { MerchantRateLimiter } from '../apps/gateway/src/protection/merchant-rate-limiter';
import { RequestAdmission } from '../apps/gateway/src/protection/request-admission';
import { fullAuthorizeBody } from '../libs/contract/test/support/full-authorize.fixture';

/**
 * `npm run build && node dist/bench/protection.bench.js`: what the abuse and load defences add to
 * each request, in µs per call, against the ~220 µs of CPU an AUTHORIZE costs the main thread
 * (docs/benchmarks.md). Each part runs alone in a loop after warm-up.
 */
function microseconds(name: string, run: () => unknown): number {
  const time = (n: number) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) run();
    return Number(process.hrtime.bigint() - started) / 1000 / n;
  };
  time(20_000); // warm-up
  const perCall = Math.min(time(200_000), time(200_000), time(200_000));
  console.log(`${name.padEnd(64)} ${perCall.toFixed(3).padStart(7)} µs`);
  return perCall;
}

const body = JSON.stringify(fullAuthorizeBody());
const merchant = { id: 'TESTBENCH', test: true } as Merchant;
const shedder = new LoadShedder(1000, 500);
const lockout = new AuthLockout({ maxFailures: 10, lockoutSeconds: 300, trackedKeys: 10_000 });
const unlimited = new MerchantRateLimiter(0);
const limited = new MerchantRateLimiter(1_000_000_000);
const admission = new RequestAdmission(shedder, {
  maxInFlightPerMerchant: 250,
  maxFeedsPerMerchant: 10,
});
const response = new EventEmitter() as EventEmitter & ServerResponse;

console.log(`JSON body: ${body.length} characters (the fully populated AUTHORIZE)\n`);
const total = [
  microseconds('JSON shape check (depth, list lengths) of the body', () => jsonShapeError(body)),
  microseconds("admission: a merchant's request in flight, listen for close, release", () => {
    admission.admitMerchant('TESTBENCH', response);
    response.emit('close');
    response.removeAllListeners('close');
  }),
  microseconds('lockout: locked?, then may a password be checked?', () => {
    lockout.retryAfter('TESTBENCH', '127.0.0.1');
    lockout.mayCheck('TESTBENCH', '127.0.0.1');
  }),
  microseconds('rate limit: take (no limit set, the default)', () => unlimited.take(merchant)),
].reduce((sum, us) => sum + us, 0);
microseconds('rate limit: take (a limit set)', () => limited.take(merchant));
console.log(`\nadded per request with the defaults: ${total.toFixed(2)} µs`);
shedder.onApplicationShutdown();
