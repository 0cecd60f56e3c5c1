import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  startGateway,
  type MerchantId,
  type RunningGateway,
} from '../support/gateway-process';
import { rawRequest, type RawAnswer } from '../support/raw-http';

/**
 * Only a password offered for the path's merchant and refused counts, per merchant id and per
 * client address; counts drain with time and nothing else lowers them. Requests come from many
 * loopback addresses (127.x.y.z), so the two counts can be told apart and an attacker's many
 * addresses can be played.
 */
const CHALLENGE = 'Basic realm="gateway"';
const INVALID = {
  result: 'ERROR',
  error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
};

/**
 * A gateway where three refused passwords lock for ten minutes (counts drain by one per 200 s),
 * so that no lock or count ends while a test runs, however loaded the machine.
 */
function lockoutGateway(env: Record<string, string> = {}) {
  const context: { gateway?: RunningGateway } = {};
  beforeAll(async () => {
    context.gateway = await startGateway(undefined, {
      GATEWAY_AUTH_MAX_FAILURES: '3',
      GATEWAY_AUTH_LOCKOUT: '600',
      ...env,
    });
  });
  afterAll(() => context.gateway?.stop());

  const url = (merchant: string, path = '/order/lockout-none') =>
    `${context.gateway!.baseUrl}/api/rest/version/100/merchant/${merchant}${path}`;
  const get = (merchant: string, authorization: string | undefined, from: string) =>
    rawRequest(url(merchant), {
      method: 'GET',
      headers: authorization === undefined ? {} : { authorization },
      localAddress: from,
    });
  const login = (merchant: string, password: string, from: string) =>
    get(merchant, basicAuth(merchant, password), from);
  return {
    url,
    gateway: () => context.gateway!,
    get,
    /** GET with Basic credentials for `merchant`: 404 when accepted (no such order). */
    login,
    /** Whether the merchant's own password, sent from `from`, is refused as locked out. */
    lockedOut: async (merchant: MerchantId, from: string) =>
      lockedOut(await login(merchant, MERCHANTS[merchant], from)),
  };
}

/** 401 with the challenge and the error body; Retry-After only when `locked`. */
function refused(answer: RawAnswer, locked: boolean): boolean {
  const retryAfter = answer.headers['retry-after'];
  return (
    answer.status === 401 &&
    answer.headers['www-authenticate'] === CHALLENGE &&
    JSON.stringify(answer.body) === JSON.stringify(INVALID) &&
    (locked ? Number(retryAfter) >= 1 : retryAfter === undefined)
  );
}
const lockedOut = (answer: RawAnswer) => refused(answer, true);
const refusedUnlocked = (answer: RawAnswer) => refused(answer, false);

/** Runs `count` calls, at most `concurrency` at a time. */
async function inParallel<T>(count: number, concurrency: number, call: (i: number) => Promise<T>) {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await call(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** A distinct loopback address for each i in one of several ranges. */
const address = (range: number, i: number) =>
  `127.${range}.${Math.floor(i / 250)}.${(i % 250) + 1}`;

describe('authentication lockout', () => {
  const gw = lockoutGateway();

  it('locks out a client address guessing at many merchant ids: then even the right password gets 401', async () => {
    const from = '127.0.0.2';
    for (const guessed of ['SHOP1', 'SHOP2', 'SHOP3'])
      expect(refusedUnlocked(await gw.login(guessed, 'guess', from))).toBe(true);
    expect(await gw.lockedOut('TESTMERCHANT', from)).toBe(true);
    // A payment sent while locked out is not made...
    const payment = '/order/lockout-pay/transaction/1';
    const refusedPayment = await rawRequest(
      gw.url('TESTOTHER', payment),
      {
        method: 'PUT',
        headers: { authorization: basicAuth('TESTOTHER', MERCHANTS.TESTOTHER) },
        localAddress: from,
      },
      JSON.stringify(authorizeBody()),
    );
    expect(lockedOut(refusedPayment)).toBe(true);
    // ...and other addresses are not affected.
    const elsewhere = await rawRequest(gw.url('TESTOTHER', payment), {
      method: 'GET',
      headers: { authorization: basicAuth('TESTOTHER', MERCHANTS.TESTOTHER) },
      localAddress: '127.0.0.3',
    });
    expect(elsewhere.status).toBe(404);
  });

  it('locks out a merchant id guessed at from many addresses, whether or not it exists', async () => {
    for (const merchant of ['LIVEMERCHANT', 'NOSUCHSHOP'])
      for (const from of ['127.0.0.4', '127.0.0.5', '127.0.0.6'])
        expect(refusedUnlocked(await gw.login(merchant, 'guess', from))).toBe(true);
    const real = await gw.login('LIVEMERCHANT', MERCHANTS.LIVEMERCHANT, '127.0.0.7');
    const unknown = await gw.login('NOSUCHSHOP', 'anything', '127.0.0.7');
    expect(lockedOut(real) && lockedOut(unknown)).toBe(true);
    // Those addresses may still reach other merchants (each failed only twice).
    expect((await gw.login('TESTMERCHANT', MERCHANTS.TESTMERCHANT, '127.0.0.4')).status).toBe(404);
  });

  it("locks a guesser out although the merchant's own requests succeed in between", async () => {
    for (let guess = 0; guess < 3; guess++) {
      const real = await gw.login('TESTOTHER', MERCHANTS.TESTOTHER, '127.0.0.8');
      expect(real.status).toBe(404);
      expect(
        refusedUnlocked(await gw.login('TESTOTHER', `guess-${guess}`, `127.0.0.${9 + guess}`)),
      ).toBe(true);
    }
    expect(await gw.lockedOut('TESTOTHER', '127.0.0.8')).toBe(true);
  });

  it('checks no more passwords for concurrent guesses than for sequential ones', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        gw.login('TESTMERCHANT', `concurrent-guess-${i}`, address(3, i)),
      ),
    );
    expect(answers.every((answer) => refusedUnlocked(answer) || lockedOut(answer))).toBe(true);
    const checked = answers.filter(refusedUnlocked).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(3);
    expect(await gw.lockedOut('TESTMERCHANT', '127.0.0.12')).toBe(true);
  });

  it('counts lockouts in the metrics', async () => {
    const metrics = await (await fetch(`${gw.gateway().baseUrl}/metrics`)).text();
    const locked = /gateway_requests_refused_total\{reason="locked_out"\} (\d+)/.exec(metrics);
    expect(Number(locked?.[1])).toBeGreaterThanOrEqual(32);
  });
});

describe('authentication lockout under a flood of made-up merchant ids', () => {
  // A table of 20 merchant ids (and 20 addresses), so that a flood of refused passwords, each a
  // scrypt check, overflows it quickly.
  const gw = lockoutGateway({ GATEWAY_AUTH_TRACKED_KEYS: '20' });

  it("shares a check between a merchant's identical requests: a burst after start is not a guess", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => gw.login('TESTOTHER', MERCHANTS.TESTOTHER, '127.0.0.2')),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(404));
  });

  it('keeps a lock through 10,050 credential-less requests to made-up ids from as many addresses', async () => {
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5'])
      await gw.login('TESTMERCHANT', 'guess', from);
    expect(await gw.lockedOut('TESTMERCHANT', '127.0.0.6')).toBe(true);
    // More ids than the 10,000 tracked by default: when such requests counted, this evicted locks.
    const flood = await inParallel(10_050, 64, (i) =>
      gw.get(`MADEUP${i}`, undefined, address(4, i)),
    );
    expect(await gw.lockedOut('TESTMERCHANT', '127.0.0.6')).toBe(true);
    expect(flood.every(refusedUnlocked)).toBe(true);
  }, 180_000);

  it('keeps locks and the highest counts through a flood of refused passwords for made-up ids', async () => {
    // LIVEMERCHANT is one refused password away from a lock.
    for (const from of ['127.0.0.7', '127.0.0.8'])
      expect(refusedUnlocked(await gw.login('LIVEMERCHANT', 'guess', from))).toBe(true);
    const flood = await inParallel(60, 8, (i) => gw.login(`GHOST${i}`, 'guess', address(5, i)));
    expect(await gw.lockedOut('TESTMERCHANT', '127.0.0.6')).toBe(true);
    expect(refusedUnlocked(await gw.login('LIVEMERCHANT', 'guess', '127.0.0.9'))).toBe(true);
    expect(await gw.lockedOut('LIVEMERCHANT', '127.0.0.10')).toBe(true);
    expect(flood.every(refusedUnlocked)).toBe(true);
  });
});

describe('authentication without credentials', () => {
  const gw = lockoutGateway();
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('answers a request without credentials, or with credentials for no one, 401 with the challenge, and never counts it', async () => {
    const from = '127.0.0.2';
    const uncounted = [
      ...Array<undefined>(10).fill(undefined),
      'Bearer some-token',
      'Digest username="merchant.TESTMERCHANT"',
      basicAuth('TESTOTHER', MERCHANTS.TESTOTHER), // another merchant's user
      basic('merchant.TESTMERCHANT'), // no password at all
      basic(`TESTMERCHANT:${MERCHANTS.TESTMERCHANT}`), // not the merchant.<id> user
    ];
    for (const authorization of uncounted)
      expect(refusedUnlocked(await gw.get('TESTMERCHANT', authorization, from))).toBe(true);
    expect((await gw.login('TESTMERCHANT', MERCHANTS.TESTMERCHANT, from)).status).toBe(404);
  });

  it('sends the challenge with every 401: a refused password, and a lockout', async () => {
    const answers: RawAnswer[] = [];
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5'])
      answers.push(await gw.login('LIVEMERCHANT', 'guess', from));
    answers.push(await gw.login('LIVEMERCHANT', MERCHANTS.LIVEMERCHANT, '127.0.0.6'));
    const list = await rawRequest(gw.url('LIVEMERCHANT', '/order'), {
      method: 'GET',
      localAddress: '127.0.0.6',
    });
    expect(answers.slice(0, 3).every(refusedUnlocked)).toBe(true);
    expect(lockedOut(answers[3])).toBe(true);
    expect(list.status).toBe(401);
    expect(list.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('serves a client that sends credentials only when challenged, however often', async () => {
    /** As such clients do: first without credentials, then, answering the challenge, with them. */
    const challenged = async (merchant: MerchantId, method: string, path: string, body = '') => {
      const first = await rawRequest(
        gw.url(merchant, path),
        { method, localAddress: '127.0.0.7' },
        body,
      );
      const challenge = /^Basic realm="[^"]*"$/.exec(String(first.headers['www-authenticate']));
      if (first.status !== 401 || !challenge) return first;
      return rawRequest(
        gw.url(merchant, path),
        {
          method,
          headers: { authorization: basicAuth(merchant, MERCHANTS[merchant]) },
          localAddress: '127.0.0.7',
        },
        body,
      );
    };
    for (let i = 1; i <= 12; i++) {
      const path = `/order/challenged-${Date.now()}-${i}/transaction/1`;
      const paid = await challenged('TESTOTHER', 'PUT', path, JSON.stringify(authorizeBody()));
      expect(paid.status).toBe(201);
      expect((await challenged('TESTOTHER', 'GET', path)).status).toBe(200);
    }
  });
});

describe('the end of a lockout', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    // One refused password locks for 2 s.
    gateway = await startGateway(undefined, {
      GATEWAY_AUTH_MAX_FAILURES: '1',
      GATEWAY_AUTH_LOCKOUT: '2',
    });
  });
  afterAll(() => gateway?.stop());

  it('lets the right password in again once the lockout has ended', async () => {
    const login = (password: string) =>
      rawRequest(`${gateway.baseUrl}/api/rest/version/100/merchant/TESTMERCHANT/order/none`, {
        method: 'GET',
        headers: { authorization: basicAuth('TESTMERCHANT', password) },
      });
    expect(refusedUnlocked(await login('wrong'))).toBe(true);
    const locked = await login(MERCHANTS.TESTMERCHANT);
    expect(lockedOut(locked) && Number(locked.headers['retry-after']) <= 2).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await login(MERCHANTS.TESTMERCHANT)).status).toBe(404);
  });
});
