import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  orderIds,
  useGateway,
} from '../../support/gateway-process';
import {
  openKeepAlive,
  sendChallenged,
  type ChallengedExchange,
  type KeepAliveConnection,
} from '../../support/keep-alive-connection';

/**
 * Issue 14, point 1: Node's `request` (auth with sendImmediately: false) and Apache HttpClient
 * send credentials only after a challenge. Each request goes out without an Authorization header;
 * the 401 must carry `WWW-Authenticate: Basic realm="gateway"` and leave the keep-alive connection
 * open, and the same request sent again on it with the credentials must succeed.
 */
const MERCHANT = 'TESTMERCHANT';
const BASE = `/api/rest/version/100/merchant/${MERCHANT}`;
const CREDENTIALS = basicAuth(MERCHANT, MERCHANTS[MERCHANT]);

describe('a client that sends credentials only when challenged', () => {
  const under = useGateway();
  const nextOrder = orderIds('challenged');
  let connection: KeepAliveConnection;
  beforeEach(async () => {
    connection = await openKeepAlive(under.gateway.baseUrl);
  });
  afterEach(() => connection.close());

  /** The challenge as such a client reads it, then the answer on the same, still open, connection. */
  const challengedThenAnswered = (exchange: ChallengedExchange) => {
    expect(exchange.challenge.status).toBe(401);
    expect(exchange.challenge.headers['www-authenticate']).toBe('Basic realm="gateway"');
    expect(exchange.challenge.headers.connection).not.toBe('close');
    expect(exchange.challenge.headers['retry-after']).toBeUndefined();
    expect(exchange.challenge.body).toEqual({
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
    });
    expect(connection.isOpen()).toBe(true);
    return exchange.answer!;
  };

  it('authorizes: a PUT with its body, sent twice on one connection', async () => {
    const body = JSON.stringify(authorizeBody());
    const path = `${BASE}/order/${nextOrder()}/transaction/1`;
    const answer = challengedThenAnswered(
      await sendChallenged(connection, CREDENTIALS, 'PUT', path, body),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ result: 'SUCCESS', response: { gatewayCode: 'APPROVED' } });
  });

  it('retrieves an order', async () => {
    const orderId = nextOrder();
    await under.api.put(`/order/${orderId}/transaction/1`, authorizeBody());
    const answer = challengedThenAnswered(
      await sendChallenged(connection, CREDENTIALS, 'GET', `${BASE}/order/${orderId}`),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: orderId, status: 'AUTHORIZED' });
  });

  it('creates a payment session', async () => {
    const answer = challengedThenAnswered(
      await sendChallenged(connection, CREDENTIALS, 'POST', `${BASE}/session`, '{}'),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ result: 'SUCCESS', merchant: MERCHANT });
    expect(answer.body.session.id).toMatch(/^SESSION/);
  });

  it('does all three, again and again, on one connection', async () => {
    for (let round = 0; round < 5; round++) {
      const orderId = nextOrder();
      const paid = await sendChallenged(
        connection,
        CREDENTIALS,
        'PUT',
        `${BASE}/order/${orderId}/transaction/1`,
        JSON.stringify(authorizeBody()),
      );
      const read = await sendChallenged(connection, CREDENTIALS, 'GET', `${BASE}/order/${orderId}`);
      const session = await sendChallenged(
        connection,
        CREDENTIALS,
        'POST',
        `${BASE}/session`,
        '{}',
      );
      expect(
        [paid, read, session].map((exchange) => challengedThenAnswered(exchange).status),
      ).toEqual([201, 200, 201]);
    }
  });
});
