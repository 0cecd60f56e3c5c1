import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  startKurrentDbStandin,
  type KurrentDbStandin,
} from '../support/kurrentdb-standin/standin-server';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  refusedStart,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { makeKeysFile } from '../support/keys-file';

const EUR_CARD = '4012000033330026';
const STACK_LINE = /^\s+at /m;

/**
 * Two gateway nodes on one KurrentDB (the protocol stand-in), each with its own data directory
 * and the same keys file (GATEWAY_KEYS_FILE): what one node issued, the other honours.
 */
describe('two gateways on one KurrentDB, given the same keys file', () => {
  let standin: KurrentDbStandin;
  let a: RunningGateway;
  let b: RunningGateway;
  let kurrentdb: Record<string, string>;

  beforeAll(async () => {
    standin = await startKurrentDbStandin();
    kurrentdb = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: standin.connectionString,
    };
    const keys = makeKeysFile();
    // Both start on the empty store: neither may make keys of its own.
    [a, b] = await Promise.all([
      startGateway(undefined, { ...kurrentdb, ...keys.env }),
      startGateway(undefined, { ...kurrentdb, ...keys.env }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await standin?.stop();
  });

  it('makes no key file in either data directory', () => {
    for (const { dataDir } of [a, b])
      for (const file of [
        'fingerprint.key',
        'session.key',
        'page-token.key',
        'card-fingerprint.key',
      ])
        expect(existsSync(join(dataDir, file))).toBe(false);
  });

  it('a retry on node B answers byte-identical to the original on node A', async () => {
    const body = authorizeBody('31.00');
    const original = await merchantClient(a).put('/order/cluster-retry/transaction/1', body);
    expect(original.status).toBe(201);
    const retry = await merchantClient(b).put('/order/cluster-retry/transaction/1', body);
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(original.text);
    // A different body under the same id is not a retry on B either.
    const changed = await merchantClient(b).put(
      '/order/cluster-retry/transaction/1',
      authorizeBody('32.00'),
    );
    expect(changed.status).toBe(400);
  });

  it('a currency-conversion quote given by node A is taken up on node B', async () => {
    const inquiry = await merchantClient(a).post('/paymentOptionsInquiry', {
      order: { amount: '100.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', provided: { card: { number: EUR_CARD } } },
    });
    expect(inquiry.status).toBe(200);
    const { requestId } = inquiry.body.currencyConversion;
    const paid = await merchantClient(b).put('/order/cluster-quote/transaction/1', {
      apiOperation: 'PAY',
      order: { amount: '100.00', currency: 'USD' },
      sourceOfFunds: {
        type: 'CARD',
        provided: { card: { number: EUR_CARD, expiry: { month: '1', year: '39' } } },
      },
      currencyConversion: {
        uptake: 'ACCEPTED',
        payerAmount: '94.76',
        payerCurrency: 'EUR',
        requestId,
      },
    });
    expect(paid.status).toBe(201);
    expect(paid.body.currencyConversion).toMatchObject({
      uptake: 'ACCEPTED',
      payerAmount: 94.76,
      payerCurrency: 'EUR',
    });
  });

  it('a gateway on KurrentDB without a keys file refuses to start, saying how to make one', async () => {
    const dataDir = await makeDataDir();
    const { code, output } = await refusedStart(() => startGateway(dataDir, kurrentdb));
    expect(code).not.toBeNull();
    expect(code).not.toBe(0);
    expect(output).toMatch(
      /GATEWAY_KEYS_FILE is required when GATEWAY_EVENT_STORE=kurrentdb: a gateway on a shared event store never makes its own keys\. Create the file once with `npm run keys -- new --out keys\.json`/,
    );
    expect(output).not.toMatch(STACK_LINE);
    expect(existsSync(join(dataDir, 'fingerprint.key'))).toBe(false);
  });
});
