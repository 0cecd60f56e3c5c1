import { isLuhnValid } from '@gateway/domain';
import { saveCardBody } from '../support/payment-data';
import { randomBytes } from 'node:crypto';
import {
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';

/**
 * Stored cards (behaviour notes, Save Card) over a real port: issue, create or update by name,
 * retrieve and delete a token; the token format; one card one token per merchant; the merchant's
 * own tokens only; verification NONE and BASIC; a security code refused.
 */
const VISA_DEBIT = '4508750015741019';
const MASTERCARD = '5123450000000008';

let gateway: RunningGateway;
let api: ReturnType<typeof merchantClient>;
let other: ReturnType<typeof merchantClient>;
beforeAll(async () => {
  gateway = await startGateway();
  api = merchantClient(gateway);
  other = merchantClient(gateway, 'TESTOTHER');
});
afterAll(() => gateway.stop());

describe('POST …/token (Save Card)', () => {
  it('issues a token of 16 digits, starting with 9, ending with the last four, failing Luhn', async () => {
    const answer = await api.post('/token', saveCardBody(VISA_DEBIT, { correlationId: 'c-1' }));
    expect(answer.status).toBe(201);
    const token: string = answer.body.token;
    expect(token).toMatch(/^9\d{11}1019$/);
    expect(isLuhnValid(token)).toBe(false);
    expect(answer.body).toEqual({
      correlationId: 'c-1',
      repositoryId: 'TESTMERCHANT',
      response: { gatewayCode: 'NO_VERIFICATION_PERFORMED' },
      result: 'SUCCESS',
      sourceOfFunds: {
        provided: {
          card: {
            brand: 'VISA',
            expiry: { month: '1', year: '39' },
            fundingMethod: 'DEBIT',
            number: '450875xxxxxx1019',
            scheme: 'VISA',
          },
        },
        type: 'CARD',
      },
      status: 'VALID',
      token,
      usage: { lastUpdated: expect.any(String) },
      verificationStrategy: 'NONE',
    });
    expect(answer.text).not.toContain(VISA_DEBIT);
  });

  it('gives one card saved twice by one merchant the same token, another merchant another', async () => {
    const first = await api.post('/token', saveCardBody(MASTERCARD));
    const again = await api.post('/token', saveCardBody(MASTERCARD));
    const elsewhere = await other.post('/token', saveCardBody(MASTERCARD));
    expect([first.status, again.status, elsewhere.status]).toEqual([201, 201, 201]);
    expect(again.body.token).toBe(first.body.token);
    expect(elsewhere.body.token).not.toBe(first.body.token);
  });

  it('BASIC checks the Luhn digit and the expiry', async () => {
    const ok = await api.post(
      '/token',
      saveCardBody(MASTERCARD, { verificationStrategy: 'BASIC' }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.response.gatewayCode).toBe('BASIC_VERIFICATION_SUCCESSFUL');
    const luhn = await api.post(
      '/token',
      saveCardBody('5123450000000009', { verificationStrategy: 'BASIC' }),
    );
    expect(luhn.status).toBe(400);
    expect(luhn.body.error).toMatchObject({
      cause: 'INVALID_REQUEST',
      field: 'sourceOfFunds.provided.card.number',
      validationType: 'INVALID',
    });
    const expired = await api.post(
      '/token',
      saveCardBody(MASTERCARD, { verificationStrategy: 'BASIC' }, { month: '1', year: '20' }),
    );
    expect(expired.status).toBe(400);
    expect(expired.body.error.field).toBe('sourceOfFunds.provided.card.expiry.year');
  });

  it('ACQUIRER verifies with the acquirer: approved saves, a decline refuses and saves nothing', async () => {
    const ok = await api.put(
      '/token/Acq1',
      saveCardBody(MASTERCARD, { verificationStrategy: 'ACQUIRER' }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      response: { gatewayCode: 'EXTERNAL_VERIFICATION_SUCCESSFUL' },
      verificationStrategy: 'ACQUIRER',
    });
    const declined = await api.put(
      '/token/Acq2',
      saveCardBody(MASTERCARD, { verificationStrategy: 'ACQUIRER' }, { month: '5', year: '39' }),
    );
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({
      result: 'ERROR',
      error: { cause: 'REQUEST_REJECTED', field: 'sourceOfFunds.provided.card' },
      response: { gatewayCode: 'DECLINED' },
    });
    expect((await api.get('/token/Acq2')).status).toBe(404);
  });

  it('refuses a security code: it is never stored', async () => {
    const body = saveCardBody(MASTERCARD);
    (body.sourceOfFunds.provided.card as Record<string, unknown>).securityCode = '123';
    const answer = await api.post('/token', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      cause: 'INVALID_REQUEST',
      field: 'sourceOfFunds.provided.card.securityCode',
    });
  });

  it('needs a card number and an expiry', async () => {
    const answer = await api.post('/token', { sourceOfFunds: { type: 'CARD' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      field: 'sourceOfFunds.provided.card.number',
      validationType: 'MISSING',
    });
  });

  it('takes the card from a payment session', async () => {
    const session = (await api.post('/session', {})).body.session.id;
    const stored = await api.put(`/session/${session}`, {
      sourceOfFunds: {
        provided: {
          card: { number: VISA_DEBIT, expiry: { month: '5', year: '38' }, securityCode: '123' },
        },
      },
    });
    expect(stored.status).toBe(200);
    const answer = await api.post('/token', { session: { id: session } });
    expect(answer.status).toBe(201);
    expect(answer.body.sourceOfFunds.provided.card).toMatchObject({
      number: '450875xxxxxx1019',
      expiry: { month: '5', year: '38' },
    });
  });
});

describe('PUT, GET and DELETE …/token/{tokenid}', () => {
  it('creates (201), updates (200), retrieves and deletes the token the merchant names', async () => {
    const created = await api.put('/token/MyCard1', saveCardBody(MASTERCARD));
    expect(created.status).toBe(201);
    expect(created.body.token).toBe('MyCard1');
    const updated = await api.put('/token/MyCard1', {
      sourceOfFunds: { provided: { card: { expiry: { month: '12', year: '37' } } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.sourceOfFunds.provided.card).toMatchObject({
      number: '512345xxxxxx0008',
      expiry: { month: '12', year: '37' },
    });
    const read = await api.get('/token/MyCard1');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(updated.body);
    const deleted = await api.delete('/token/MyCard1');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ result: 'SUCCESS' });
    expect((await api.get('/token/MyCard1')).status).toBe(404);
    expect((await api.delete('/token/MyCard1')).status).toBe(404);
  });

  it("answers 404 for another merchant's token", async () => {
    const mine = await api.put('/token/Private1', saveCardBody(MASTERCARD));
    expect(mine.status).toBe(201);
    expect((await other.get('/token/Private1')).status).toBe(404);
    expect((await other.delete('/token/Private1')).status).toBe(404);
    expect((await api.get('/token/Private1')).status).toBe(200);
  });

  it('shows INVALID once the expiry has passed', async () => {
    const answer = await api.put('/token/Old1', {
      sourceOfFunds: {
        provided: { card: { number: MASTERCARD, expiry: { month: '1', year: '21' } } },
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe('INVALID');
  });

  it('refuses a token id that is not 1-40 letters and digits, and a card number as one', async () => {
    const bad = await api.put('/token/no-dash', saveCardBody(MASTERCARD));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ field: 'token', validationType: 'INVALID' });
    const card = await api.put(`/token/${MASTERCARD}`, saveCardBody(MASTERCARD));
    expect(card.status).toBe(400);
    expect(card.text).not.toContain(MASTERCARD);
    expect((await api.get('/token/no-dash')).status).toBe(404);
  });

  it('an unknown token is 404 on GET and DELETE', async () => {
    expect((await api.get('/token/Never1')).status).toBe(404);
    expect((await api.delete('/token/Never1')).status).toBe(404);
  });
});

describe('paying with a token', () => {
  const orders = (() => {
    let n = 0;
    return () => `tok-${Date.now()}-${++n}`;
  })();
  const pay = (operation: string, source: Record<string, unknown>, extra = {}) =>
    api.put(`/order/${orders()}/transaction/1`, {
      apiOperation: operation,
      order: operation === 'VERIFY' ? { currency: 'USD' } : { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', ...source },
      ...extra,
    });

  it.each(['AUTHORIZE', 'PAY', 'VERIFY'])(
    '%s with a token: approved, the response shows the token and the masked card, usage recorded',
    async (operation) => {
      const token = (await api.post('/token', saveCardBody(MASTERCARD))).body.token;
      const answer = await pay(operation, { token });
      expect(answer.status).toBe(201);
      expect(answer.body.result).toBe('SUCCESS');
      expect(answer.body.sourceOfFunds).toMatchObject({
        token,
        type: 'CARD',
        provided: { card: { number: '512345xxxxxx0008', expiry: { month: '1', year: '39' } } },
      });
      expect(answer.text).not.toContain(MASTERCARD);
      const used = await api.get(`/token/${token}`);
      expect(used.body.usage.lastUsedTime).toEqual(expect.any(String));
    },
  );

  it('a security code and a new expiry sent beside the token override the stored ones', async () => {
    const token = (await api.post('/token', saveCardBody(VISA_DEBIT))).body.token;
    const answer = await pay('AUTHORIZE', {
      token,
      provided: { card: { securityCode: '123', expiry: { month: '7', year: '38' } } },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.sourceOfFunds.provided.card).toMatchObject({
      number: '450875xxxxxx1019',
      expiry: { month: '7', year: '38' },
    });
    expect(answer.text).not.toContain('"123"');
  });

  it("the session's card fields override the token's, the sent ones override the session's", async () => {
    const token = (await api.post('/token', saveCardBody(MASTERCARD))).body.token;
    /** A session (one per order) holding only an expiry. */
    const sessionWithExpiry = async () => {
      const id = (await api.post('/session', {})).body.session.id;
      await api.put(`/session/${id}`, {
        sourceOfFunds: { provided: { card: { expiry: { month: '3', year: '37' } } } },
      });
      return { id };
    };
    const fromSession = await pay('PAY', { token }, { session: await sessionWithExpiry() });
    expect(fromSession.status).toBe(201);
    expect(fromSession.body.sourceOfFunds.provided.card.expiry).toEqual({ month: '3', year: '37' });
    const sent = await pay(
      'PAY',
      { token, provided: { card: { expiry: { month: '4', year: '36' } } } },
      { session: await sessionWithExpiry() },
    );
    expect(sent.status).toBe(201);
    expect(sent.body.sourceOfFunds.provided.card.expiry).toEqual({ month: '4', year: '36' });
  });

  it("another merchant's, a deleted and an unknown token are INVALID on sourceOfFunds.token", async () => {
    const mine = (await api.put('/token/PayMe1', saveCardBody(MASTERCARD))).body.token;
    const others = await other.put(`/order/${orders()}/transaction/1`, {
      apiOperation: 'PAY',
      order: { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', token: mine },
    });
    expect(others.status).toBe(400);
    expect(others.body.error).toMatchObject({
      cause: 'INVALID_REQUEST',
      field: 'sourceOfFunds.token',
      validationType: 'INVALID',
    });
    expect((await api.delete(`/token/${mine}`)).status).toBe(200);
    const fullCard = {
      provided: { card: { number: VISA_DEBIT, expiry: { month: '1', year: '39' } } },
    };
    for (const source of [{ token: mine }, { token: 'Never2' }, { token: mine, ...fullCard }]) {
      const order = orders();
      const answer = await api.put(`/order/${order}/transaction/1`, {
        apiOperation: 'PAY',
        order: { amount: '10.00', currency: 'USD' },
        sourceOfFunds: { type: 'CARD', ...source },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        field: 'sourceOfFunds.token',
        validationType: 'INVALID',
      });
      expect((await api.get(`/order/${order}`)).status).toBe(404);
    }
  });

  it('two payments with one token at once both go through, and its usage is recorded', async () => {
    const token = (await api.put('/token/Twice1', saveCardBody(MASTERCARD))).body.token;
    const [a, b] = await Promise.all([pay('PAY', { token }), pay('AUTHORIZE', { token })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.response.gatewayCode, b.body.response.gatewayCode]).toEqual([
      'APPROVED',
      'APPROVED',
    ]);
    expect((await api.get(`/token/${token}`)).body.usage.lastUsedTime).toEqual(expect.any(String));
  });

  it('a retry of a payment whose token was deleted since gets the original response', async () => {
    const token = (await api.put('/token/Retry1', saveCardBody(MASTERCARD))).body.token;
    const body = {
      apiOperation: 'PAY',
      order: { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', token },
    };
    const order = orders();
    const first = await api.put(`/order/${order}/transaction/1`, body);
    expect(first.status).toBe(201);
    expect((await api.delete(`/token/${token}`)).status).toBe(200);
    const retry = await api.put(`/order/${order}/transaction/1`, body);
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
  });

  it('a retry records no second use: usage.lastUsedTime stays that of the payment', async () => {
    const token = (await api.put('/token/Retry2', saveCardBody(MASTERCARD))).body.token;
    const body = {
      apiOperation: 'PAY',
      order: { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', token },
    };
    const path = `/order/${orders()}/transaction/1`;
    const first = await api.put(path, body);
    expect(first.status).toBe(201);
    const usedFirst = (await api.get(`/token/${token}`)).body.usage.lastUsedTime;
    expect(usedFirst).toEqual(expect.any(String));
    // Later than the first use, so that a second TokenUsed would show another time.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const retries = await Promise.all([api.put(path, body), api.put(path, body)]);
    expect(retries.map((r) => r.text)).toEqual([first.text, first.text]);
    expect((await api.get(`/token/${token}`)).body.usage.lastUsedTime).toBe(usedFirst);
  });

  it('a token deleted while payments use it: those that read it complete, later ones are INVALID, nothing stored for them', async () => {
    const token = (await api.put('/token/Racing1', saveCardBody(MASTERCARD))).body.token;
    const payments = Array.from({ length: 6 }, () => orders());
    const [deleted, ...paid] = await Promise.all([
      api.delete(`/token/${token}`),
      ...payments.map((order) =>
        api.put(`/order/${order}/transaction/1`, {
          apiOperation: 'PAY',
          order: { amount: '10.00', currency: 'USD' },
          sourceOfFunds: { type: 'CARD', token },
        }),
      ),
    ]);
    expect(deleted.status).toBe(200);
    for (const [i, answer] of paid.entries()) {
      const order = await api.get(`/order/${payments[i]}`);
      if (answer.status === 201) {
        expect(answer.body.response.gatewayCode).toBe('APPROVED');
        expect(order.status).toBe(200);
      } else {
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatchObject({
          field: 'sourceOfFunds.token',
          validationType: 'INVALID',
        });
        expect(order.status).toBe(404);
      }
    }
    expect((await api.get(`/token/${token}`)).status).toBe(404);
    const next = await pay('PAY', { token });
    expect(next.status).toBe(400);
    expect(next.body.error.field).toBe('sourceOfFunds.token');
  });

  it('REFUND takes no token', async () => {
    const token = (await api.put('/token/Refund1', saveCardBody(MASTERCARD))).body.token;
    const answer = await api.put(`/order/${orders()}/transaction/1`, {
      apiOperation: 'REFUND',
      transaction: { amount: '5.00', currency: 'USD' },
      sourceOfFunds: {
        type: 'CARD',
        token,
        provided: { card: { number: MASTERCARD, expiry: { month: '1', year: '39' } } },
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.field).toBe('sourceOfFunds.token');
  });
});

describe('after kill -9', () => {
  it('a saved token (201) is there, with its number to pay with; a deleted one stays deleted', async () => {
    const first = await startGateway();
    const before = merchantClient(first);
    const kept = await before.put('/token/Durable1', saveCardBody(MASTERCARD));
    const gone = await before.put('/token/Durable2', saveCardBody(VISA_DEBIT));
    expect([kept.status, gone.status]).toEqual([201, 201]);
    expect((await before.delete('/token/Durable2')).status).toBe(200);
    await first.stop('SIGKILL');

    const second = await startGateway(first.dataDir);
    try {
      const after = merchantClient(second);
      const read = await after.get('/token/Durable1');
      expect(read.status).toBe(200);
      expect(read.text).toBe(kept.text);
      expect((await after.get('/token/Durable2')).status).toBe(404);
      const paid = await after.put(`/order/durable-${Date.now()}/transaction/1`, {
        apiOperation: 'PAY',
        order: { amount: '10.00', currency: 'USD' },
        sourceOfFunds: { type: 'CARD', token: 'Durable1' },
      });
      expect(paid.status).toBe(201);
      expect(paid.body.response.gatewayCode).toBe('APPROVED');
    } finally {
      await second.stop();
    }
  });
});

describe('data key rotation', () => {
  const k1 = `k1:${randomBytes(32).toString('base64')}`;
  const k2 = `k2:${randomBytes(32).toString('base64')}`;
  const payWith = (client: ReturnType<typeof merchantClient>, token: string) =>
    client.put(`/order/rotation-${token}-${Date.now()}/transaction/1`, {
      apiOperation: 'PAY',
      order: { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', token },
    });

  it('a token saved under k1 pays after k2 becomes current while k1 is kept, not once k1 is gone', async () => {
    const dataDir = await makeDataDir();
    const run = async (
      env: Record<string, string>,
      test: (client: ReturnType<typeof merchantClient>) => Promise<void>,
    ) => {
      const running = await startGateway(dataDir, env);
      try {
        await test(merchantClient(running));
      } finally {
        await running.stop();
      }
    };
    await run({ GATEWAY_DATA_KEYS: k1 }, async (client) => {
      expect((await client.put('/token/Rotate1', saveCardBody(MASTERCARD))).status).toBe(201);
    });
    await run({ GATEWAY_DATA_KEYS: `${k1},${k2}`, GATEWAY_DATA_KEY_ID: 'k2' }, async (client) => {
      expect((await payWith(client, 'Rotate1')).status).toBe(201);
      // Saved again: its key is now wrapped by k2.
      expect((await client.put('/token/Rotate2', saveCardBody(VISA_DEBIT))).status).toBe(201);
    });
    await run({ GATEWAY_DATA_KEYS: k2 }, async (client) => {
      expect((await payWith(client, 'Rotate2')).status).toBe(201);
      const lost = await payWith(client, 'Rotate1');
      expect(lost.status).toBe(400);
      expect(lost.body.error.field).toBe('sourceOfFunds.token');
    });
  });
});
