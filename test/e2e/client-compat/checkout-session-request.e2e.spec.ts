import Database from 'better-sqlite3';
import { join } from 'node:path';
import { merchantClient, useGateway } from '../../support/gateway-process';

/**
 * Issue 14, point 6, and issue 16 (create session): merchant back ends ask Create Session for a
 * hosted checkout (`INITIATE_CHECKOUT`, `CREATE_CHECKOUT_SESSION` below version 63) and get a
 * checkout session with its successIndicator; a body with any other apiOperation or an unknown
 * field is refused, naming it, and stores nothing.
 */
describe('Create Session asked for more than an empty session', () => {
  const under = useGateway();
  /** Sessions stored, whoever made them: refusals must add none. */
  const storedSessions = () => {
    const db = new Database(join(under.gateway.dataDir, 'sessions.db'), { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  /** What a Node e-commerce back end sends for a hosted payment page. */
  const checkout = (apiOperation: string, orderId = 'checkout-1') => ({
    apiOperation,
    interaction: {
      operation: 'PURCHASE',
      returnUrl: 'https://shop.example/return',
      cancelUrl: 'https://shop.example/cart',
      merchant: { name: 'Example Shop' },
    },
    order: { id: orderId, amount: '49.90', currency: 'USD', description: 'Two mugs' },
  });

  const refusedNaming = (field: string, explanation: RegExp) => ({
    result: 'ERROR',
    error: {
      cause: 'INVALID_REQUEST',
      field,
      validationType: 'INVALID',
      explanation: expect.stringMatching(explanation),
    },
  });

  it('makes a checkout session, by the name each version gives it, with a successIndicator', async () => {
    const before = storedSessions();
    const indicators = new Set<string>();
    for (const [version, apiOperation] of [
      [100, 'INITIATE_CHECKOUT'],
      [63, 'INITIATE_CHECKOUT'],
      [62, 'CREATE_CHECKOUT_SESSION'],
    ] as const) {
      const answer = await merchantClient(under.gateway, 'TESTMERCHANT', version).post('/session', {
        ...checkout(apiOperation, `checkout-v${version}`),
        correlationId: 'basket-1',
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        correlationId: 'basket-1',
        merchant: 'TESTMERCHANT',
        result: 'SUCCESS',
        session: {
          id: expect.stringMatching(/^SESSION[A-Z2-9]{25}$/),
          updateStatus: 'NO_UPDATE',
          version: expect.stringMatching(/^[0-9a-f]{10}$/),
        },
        successIndicator: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      indicators.add(answer.body.successIndicator);
    }
    expect(indicators.size).toBe(3);
    expect(storedSessions()).toBe(before + 3);
  });

  it('keeps the successIndicator out of the store and out of Retrieve Session', async () => {
    const created = await under.api.post('/session', checkout('INITIATE_CHECKOUT', 'checkout-r'));
    const retrieved = await under.api.get(`/session/${created.body.session.id}`);
    expect(retrieved.status).toBe(200);
    expect(JSON.stringify(retrieved.body)).not.toContain(created.body.successIndicator);
    const db = new Database(join(under.gateway.dataDir, 'sessions.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM sessions').all();
      expect(JSON.stringify(rows)).not.toContain(created.body.successIndicator);
    } finally {
      db.close();
    }
  });

  it('refuses a checkout session the page could not serve, naming the field', async () => {
    const before = storedSessions();
    const body = checkout('INITIATE_CHECKOUT');
    const insecure = {
      ...body,
      interaction: { ...body.interaction, returnUrl: 'http://shop.example/r' },
    };
    expect((await under.api.post('/session', insecure)).body).toEqual(
      refusedNaming('interaction.returnUrl', /https URL/),
    );
    const { interaction: _interaction, ...bare } = body;
    expect((await under.api.post('/session', bare)).body.error).toMatchObject({
      field: 'interaction.merchant.name',
      validationType: 'MISSING',
    });
    expect(storedSessions()).toBe(before);
  });

  it('refuses any other apiOperation, and an unknown field, naming it', async () => {
    const before = storedSessions();
    const post = (body: unknown) => under.api.post('/session', body);
    expect((await post({ apiOperation: 'CREATE_CHECKOUT_SESSION' })).body).toEqual(
      refusedNaming('apiOperation', /Create Session takes no apiOperation but INITIATE_CHECKOUT/),
    );
    expect((await post({ apiOperation: 'UPDATE_PAYER_DATA' })).body).toEqual(
      refusedNaming('apiOperation', /Create Session takes no apiOperation but INITIATE_CHECKOUT/),
    );
    expect((await post({ session: { authenticationLimit: 25 } })).body).toEqual(
      refusedNaming('session', /^Field 'session' is not part of the CREATE_SESSION request$/),
    );
    expect((await post({ order: { amount: '1.00' } })).status).toBe(400);
    expect(storedSessions()).toBe(before);
  });

  it('still makes a session of no body, the empty object, or a correlationId alone (echoed)', async () => {
    const before = storedSessions();
    const answers = [
      await under.api.post('/session'),
      await under.api.post('/session', {}),
      await under.api.post('/session', { correlationId: 'basket-7' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(answers.every((answer) => answer.body.session.updateStatus === 'NO_UPDATE')).toBe(true);
    expect(answers.map((answer) => answer.body.correlationId)).toEqual([
      undefined,
      undefined,
      'basket-7',
    ]);
    expect(storedSessions()).toBe(before + 3);
  });
});
