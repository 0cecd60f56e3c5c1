import Database from 'better-sqlite3';
import { join } from 'node:path';
import { merchantClient, useGateway } from '../../support/gateway-process';

/**
 * Issue 14, point 6 (create session): merchant back ends ask Create Session for a hosted checkout
 * (`INITIATE_CHECKOUT`, `CREATE_CHECKOUT_SESSION` below version 63), which this gateway does not
 * offer yet. They must be told so, naming the field, and get no plain session they would take
 * for a checkout; so must a body with any other apiOperation or an unknown field.
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
  const checkout = (apiOperation: string) => ({
    apiOperation,
    interaction: {
      operation: 'PURCHASE',
      returnUrl: 'https://shop.example/return',
      cancelUrl: 'https://shop.example/cart',
      merchant: { name: 'Example Shop' },
    },
    order: { id: 'checkout-1', amount: '49.90', currency: 'USD', description: 'Two mugs' },
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

  it('refuses a hosted checkout, by the name each version gives it, and stores nothing', async () => {
    const before = storedSessions();
    for (const [version, apiOperation] of [
      [100, 'INITIATE_CHECKOUT'],
      [63, 'INITIATE_CHECKOUT'],
      [62, 'CREATE_CHECKOUT_SESSION'],
    ] as const) {
      const answer = await merchantClient(under.gateway, 'TESTMERCHANT', version).post(
        '/session',
        checkout(apiOperation),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(
        refusedNaming(
          'apiOperation',
          new RegExp(`^Value '${apiOperation}' is invalid\\. Hosted checkout is not offered`),
        ),
      );
    }
    expect(storedSessions()).toBe(before);
  });

  it('refuses any other apiOperation, and an unknown field, naming it', async () => {
    const before = storedSessions();
    const post = (body: unknown) => under.api.post('/session', body);
    expect((await post({ apiOperation: 'CREATE_CHECKOUT_SESSION' })).body).toEqual(
      refusedNaming('apiOperation', /Create Session takes no apiOperation/),
    );
    expect((await post({ apiOperation: 'UPDATE_PAYER_DATA' })).body).toEqual(
      refusedNaming('apiOperation', /Create Session takes no apiOperation/),
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
