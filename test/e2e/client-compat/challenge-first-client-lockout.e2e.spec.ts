import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  orderIds,
  useGateway,
  type MerchantId,
} from '../../support/gateway-process';
import { openKeepAlive, sendChallenged } from '../../support/keep-alive-connection';

/**
 * Issue 14, point 2: a client that always sends its request without credentials first (Node's
 * `request` with sendImmediately: false, Apache HttpClient) must never lock its own merchant out,
 * however many requests it sends; a password guesser must still be locked out. Three refused
 * passwords lock here (for ten minutes, so nothing ends while the test runs).
 */
const MAX_FAILURES = 3;
const path = (merchant: MerchantId, rest: string) =>
  `/api/rest/version/100/merchant/${merchant}${rest}`;

describe('the lockout, as a challenge-first client and a password guesser meet it', () => {
  const under = useGateway({
    GATEWAY_AUTH_MAX_FAILURES: String(MAX_FAILURES),
    GATEWAY_AUTH_LOCKOUT: '600',
  });
  const nextOrder = orderIds('challenge-first');

  /**
   * One challenge-first round trip for `merchant` from `from`: an AUTHORIZE, then (unless the
   * password is a guess, which the guesser offers once) its order.
   */
  const payAndRead = async (
    merchant: MerchantId,
    from: string,
    password: string = MERCHANTS[merchant],
  ) => {
    const connection = await openKeepAlive(under.gateway.baseUrl, from);
    try {
      const credentials = basicAuth(merchant, password);
      const orderId = nextOrder();
      const body = JSON.stringify(authorizeBody());
      const paid = await sendChallenged(
        connection,
        credentials,
        'PUT',
        path(merchant, `/order/${orderId}/transaction/1`),
        body,
      );
      if (password !== MERCHANTS[merchant]) return [paid];
      const read = await sendChallenged(
        connection,
        credentials,
        'GET',
        path(merchant, `/order/${orderId}`),
      );
      return [paid, read];
    } finally {
      connection.close();
    }
  };

  const ROUNDS = MAX_FAILURES * 15;
  it(`is never locked out by its own ${ROUNDS * 2} credential-less requests, 30 times the limit`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [paid, read] = await payAndRead('TESTOTHER', '127.0.0.2');
      expect([
        paid.challenge.status,
        paid.answer?.status,
        read.challenge.status,
        read.answer?.status,
      ]).toEqual([401, 201, 401, 200]);
      expect(paid.answer?.headers['retry-after']).toBeUndefined();
    }
  });

  it("locks a password guesser out, and with it the merchant's own client, though the client's challenges come in between", async () => {
    const guess = (i: number) => payAndRead('TESTMERCHANT', `127.0.1.${i + 1}`, `guess-${i}`);
    for (let i = 0; i < MAX_FAILURES; i++) {
      const [own] = await payAndRead('TESTMERCHANT', '127.0.0.3');
      expect(own.answer?.status).toBe(201);
      const [guessed] = await guess(i);
      // A refused password: 401 with the challenge, not yet a lockout.
      expect(guessed.answer?.status).toBe(401);
      expect(guessed.answer?.headers['www-authenticate']).toBe('Basic realm="gateway"');
      expect(guessed.answer?.headers['retry-after']).toBeUndefined();
    }
    const [own] = await payAndRead('TESTMERCHANT', '127.0.0.3');
    // The credential-less request is answered as ever; the right password is now locked out.
    expect(own.challenge.status).toBe(401);
    expect(own.challenge.headers['retry-after']).toBeUndefined();
    expect(own.answer?.status).toBe(401);
    expect(Number(own.answer?.headers['retry-after'])).toBeGreaterThan(500);
    // The other merchant's challenge-first client still works.
    const [other] = await payAndRead('TESTOTHER', '127.0.0.2');
    expect(other.answer?.status).toBe(201);
  });
});
