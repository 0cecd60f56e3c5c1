import { checkAsyncApi, type CheckedAsyncApi } from '../support/asyncapi';
import {
  describeWithOpenssl,
  makeTestPki,
  type Issued,
  type TestPki,
} from '../support/certificates';
import {
  authorizeBody,
  basicAuth,
  makeDataDir,
  merchantCli,
  merchantClient,
  MERCHANTS,
  orderIds,
  reloadMerchants,
  startGateway,
  type ClientOptions,
  type MerchantId,
  type RunningGateway,
} from '../support/gateway-process';
import { ACH_ACCOUNT } from '../support/payment-data';
import { expectNothingStored, storedSecrets } from '../support/public-events';
import { openFeed, type OpenFeed, type ServerSentEvent } from '../support/sse-client';

const nextOrder = orderIds('feed');
const capture = { apiOperation: 'CAPTURE', transaction: { amount: '5.00', currency: 'USD' } };
/** TESTMERCHANT records cards at 8.4 and may UNMASK, so its bank data is sealed when recorded. */
const MERCHANT_SETTINGS = {
  TESTMERCHANT: { masking: { cardNumber: '8.4' }, permissions: ['UNMASK'] },
};

function feedOf(
  gateway: RunningGateway,
  merchant: MerchantId,
  lastEventId?: string,
  password: string = MERCHANTS[merchant],
) {
  return openFeed(merchantClient(gateway, merchant).url('/events'), {
    authorization: basicAuth(merchant, password),
    ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
  });
}

async function authorizeAndCapture(
  gateway: RunningGateway,
  merchant: MerchantId = 'TESTMERCHANT',
  options: ClientOptions = {},
) {
  const api = merchantClient(gateway, merchant, 100, options);
  const order = nextOrder();
  expect((await api.put(`/order/${order}/transaction/a`, authorizeBody('20.00'))).status).toBe(201);
  expect((await api.put(`/order/${order}/transaction/c`, capture)).status).toBe(201);
  return order;
}

const parsed = (events: readonly ServerSentEvent[]) => events.map((e) => JSON.parse(e.data));

/** Each event's transaction deep-equals a GET of that transaction by `api` (same credentials). */
async function expectTransactionsAsRetrieved(
  api: ReturnType<typeof merchantClient>,
  events: readonly ServerSentEvent[],
) {
  let compared = 0;
  for (const event of parsed(events)) {
    if (event.type === 'OrderCreated') {
      expect(event.transaction).toBeUndefined();
      continue;
    }
    const retrieved = await api.get(
      `/order/${event.orderId}/transaction/${event.transaction.transaction.id}`,
    );
    expect(retrieved.status).toBe(200);
    expect(event.transaction).toEqual(retrieved.body);
    compared++;
  }
  expect(compared).toBeGreaterThan(0);
}

/** Resolves once the server has ended the stream; fails after 15 s. */
function ended(feed: OpenFeed): Promise<void> {
  return Promise.race([
    feed.ended,
    new Promise<void>((_, fail) =>
      setTimeout(() => fail(new Error('the feed did not end')), 15_000).unref(),
    ),
  ]);
}

describe('live order event feed (server-sent events)', () => {
  let gateway: RunningGateway;
  let asyncApi: CheckedAsyncApi;
  beforeAll(async () => {
    gateway = await startGateway(await makeDataDir(MERCHANT_SETTINGS));
    const document = await fetch(`${gateway.baseUrl}/api/asyncapi.json`);
    expect(document.status).toBe(200);
    asyncApi = await checkAsyncApi((await document.json()) as Record<string, unknown>);
  });
  afterAll(() => gateway?.stop());

  it('streams new events live: id = global position, event = type, data = the public event', async () => {
    const feed = await feedOf(gateway, 'TESTMERCHANT');
    expect(feed.status).toBe(200);
    expect(feed.contentType).toMatch(/^text\/event-stream/);
    const order = await authorizeAndCapture(gateway);
    const events = await feed.waitFor(3);
    feed.close();
    const data = parsed(events);
    expect(data.map((e) => [e.orderId, e.revision, e.type])).toEqual([
      [order, 0, 'OrderCreated'],
      [order, 1, 'AuthorizationProcessed'],
      [order, 2, 'CaptureProcessed'],
    ]);
    for (const [i, e] of events.entries()) {
      expect(e.id).toBe(data[i].position);
      expect(e.event).toBe(data[i].type);
      expect(data[i]).toMatchObject({ specVersion: 2, merchantId: 'TESTMERCHANT' });
    }
    expect(data[2].order).toEqual({
      id: order,
      amount: 20,
      currency: 'USD',
      status: 'PARTIALLY_CAPTURED',
      creationTime: expect.any(String),
      lastUpdatedTime: expect.any(String),
      totalAuthorizedAmount: 20,
      totalCapturedAmount: 5,
      totalRefundedAmount: 0,
    });
    expect(events.map((e) => e.data).join('')).not.toContain('5123450000000008');
  });

  it('shows each transaction exactly as a GET under Basic authentication, and nothing stored', async () => {
    const feed = await feedOf(gateway, 'TESTMERCHANT');
    const api = merchantClient(gateway);
    const order = await authorizeAndCapture(gateway);
    const achOrder = nextOrder();
    const pay = {
      apiOperation: 'PAY',
      order: { amount: '12.00', currency: 'USD' },
      sourceOfFunds: { type: 'ACH', provided: { ach: ACH_ACCOUNT } },
    };
    expect((await api.put(`/order/${achOrder}/transaction/p`, pay)).status).toBe(201);
    const events = await feed.waitFor(5);
    feed.close();

    await expectTransactionsAsRetrieved(api, events);
    const [, authorization, captured, , paid] = parsed(events);
    // Recorded under the merchant's 8.4; Basic authentication shows the stricter 6.4.
    expect(authorization.transaction.sourceOfFunds.provided.card.number).toBe('512345xxxxxx0008');
    expect(paid.transaction.sourceOfFunds.provided.ach.bankAccountNumber).toBe('xxxxxxxx6789');
    const {
      transaction: _all,
      result: _r,
      merchant: _m,
      sourceOfFunds: _s,
      ...retrieved
    } = (await api.get(`/order/${order}`)).body;
    expect(captured.order).toEqual(retrieved);

    const secrets = storedSecrets(gateway.dataDir);
    // The scan looks for what is there: a fingerprint, request hashes, sealed bank data, 20000.
    expect(secrets.values.length).toBeGreaterThanOrEqual(4);
    expect(secrets.thousandths).toContain(20_000);
    for (const event of events) expectNothingStored(event.data, secrets);
    for (const event of parsed(events)) expect(asyncApi.validate('orderEvent', event)).toEqual([]);
  });

  it('resumes after Last-Event-ID with no gap and no duplicate', async () => {
    const live = await feedOf(gateway, 'TESTMERCHANT');
    for (let i = 0; i < 4; i++) await authorizeAndCapture(gateway);
    const all = await live.waitFor(12);
    live.close();

    // A client that saw the first five reconnects; meanwhile two more orders happen.
    const seen = all.slice(0, 5);
    for (let i = 0; i < 2; i++) await authorizeAndCapture(gateway);
    const resumed = await feedOf(gateway, 'TESTMERCHANT', seen[4].id);
    const rest = await resumed.waitFor(7 + 6);
    resumed.close();
    const ids = [...seen, ...rest].map((e) => e.id);
    expect(ids.slice(0, 12)).toEqual(all.map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
    const positions = ids.map((id) => BigInt(id!));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // Replayed events are the same public events as the live ones.
    expect(rest.slice(0, 7).map((e) => e.data)).toEqual(all.slice(5).map((e) => e.data));
  });

  it("shows each merchant only its own orders' events", async () => {
    const mine = await feedOf(gateway, 'TESTMERCHANT', '0');
    const theirs = await feedOf(gateway, 'TESTOTHER', '0');
    const otherOrder = await authorizeAndCapture(gateway, 'TESTOTHER');
    const myOrder = await authorizeAndCapture(gateway, 'TESTMERCHANT');
    await theirs.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await mine.waitFor(3);
    mine.close();
    theirs.close();
    const merchantsSeen = (feed: typeof mine) =>
      new Set(parsed(feed.events).map((e) => e.merchantId));
    expect(merchantsSeen(mine)).toEqual(new Set(['TESTMERCHANT']));
    expect(merchantsSeen(theirs)).toEqual(new Set(['TESTOTHER']));
    expect(parsed(theirs.events).map((e) => e.orderId)).toContain(otherOrder);
    expect(parsed(mine.events).map((e) => e.orderId)).toContain(myOrder);
    expect(parsed(mine.events).map((e) => e.orderId)).not.toContain(otherOrder);
  });

  it('needs the credentials of the merchant in the path, and a valid Last-Event-ID', async () => {
    const wrong = await openFeed(merchantClient(gateway, 'TESTMERCHANT').url('/events'), {
      authorization: basicAuth('TESTOTHER', MERCHANTS.TESTOTHER),
    });
    expect(wrong.status).toBe(401);
    await wrong.ended;
    const api = merchantClient(gateway);
    const bad = await api.get('/events', { 'last-event-id': '12abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field: 'Last-Event-ID' });
  });

  it('refuses a Last-Event-ID beyond the newest event with a precise error, never a silent stream', async () => {
    const api = merchantClient(gateway);
    const live = await feedOf(gateway, 'TESTMERCHANT');
    await authorizeAndCapture(gateway);
    const head = (await live.waitFor(3))[2].id!;
    live.close();
    for (const beyond of [
      '99999999999999999999',
      '18446744073709551616',
      String(BigInt(head) + 1000n),
    ]) {
      const refused = await api.get('/events', { 'last-event-id': beyond });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        result: 'ERROR',
        error: {
          cause: 'INVALID_REQUEST',
          field: 'Last-Event-ID',
          validationType: 'INVALID',
          explanation: expect.stringMatching(/beyond the newest event/),
        },
      });
    }
    // The newest event id itself resumes (with nothing missed), as a reconnect would.
    const resumed = await feedOf(gateway, 'TESTMERCHANT', head);
    expect(resumed.status).toBe(200);
    const order = await authorizeAndCapture(gateway);
    expect(parsed(await resumed.waitFor(3)).map((e) => e.orderId)).toEqual([order, order, order]);
    resumed.close();
  });
});

describe('feeds end when their credentials stop being valid', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway?.stop());

  it('password rotated (SIGHUP): the feed ends, the old password opens no new one, other feeds go on', async () => {
    const rotated = await feedOf(gateway, 'TESTOTHER');
    const other = await feedOf(gateway, 'TESTMERCHANT');
    expect([rotated.status, other.status]).toEqual([200, 200]);
    const printed = merchantCli(gateway, 'rotate-password', 'TESTOTHER');
    const password = /shown only this once\): (\w+)/.exec(printed)![1];
    await reloadMerchants(gateway);
    await ended(rotated);
    expect((await feedOf(gateway, 'TESTOTHER')).status).toBe(401);

    const order = await authorizeAndCapture(gateway, 'TESTMERCHANT');
    expect(parsed(await other.waitFor(3)).map((e) => e.orderId)).toEqual([order, order, order]);
    other.close();
    const renewed = await feedOf(gateway, 'TESTOTHER', undefined, password);
    expect(renewed.status).toBe(200);
    renewed.close();
  });

  it('merchant disabled (SIGHUP): the feed ends and sends nothing more', async () => {
    const feed = await feedOf(gateway, 'TESTMERCHANT');
    await authorizeAndCapture(gateway);
    await feed.waitFor(3);
    merchantCli(gateway, 'disable', 'TESTMERCHANT');
    await reloadMerchants(gateway);
    await ended(feed);
    merchantCli(gateway, 'enable', 'TESTMERCHANT');
    await reloadMerchants(gateway);
  });
});

describeWithOpenssl('live feed under certificate authentication (real TLS)', () => {
  let pki: TestPki;
  let gateway: RunningGateway;
  let own: Issued;
  let other: Issued;

  beforeAll(async () => {
    pki = makeTestPki();
    own = pki.client('TESTMERCHANT');
    other = pki.client('TESTOTHER');
    const dataDir = await makeDataDir({
      TESTMERCHANT: {
        ...MERCHANT_SETTINGS.TESTMERCHANT,
        certificate: { fingerprint256: own.fingerprint256 },
      },
    });
    gateway = await startGateway(dataDir, {
      GATEWAY_TLS_CERT: pki.server.certFile,
      GATEWAY_TLS_KEY: pki.server.keyFile,
      GATEWAY_TLS_CLIENT_CA: pki.ca.certFile,
    });
  });
  afterAll(() => gateway?.stop());

  const byCertificate = (): ClientOptions => ({
    tls: { ca: pki.ca.cert, cert: own.cert, key: own.key },
    authorization: null,
  });
  const byPassword = (): ClientOptions => ({ tls: { ca: pki.ca.cert } });
  const url = () => merchantClient(gateway, 'TESTMERCHANT').url('/events');
  const certificateFeed = () => openFeed(url(), {}, byCertificate().tls);
  const passwordFeed = () =>
    openFeed(
      url(),
      { authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT) },
      {
        ca: pki.ca.cert,
      },
    );

  it("shows each feed what a GET with the same credentials shows: the certificate's 8.4, Basic's 6.4", async () => {
    const [withCertificate, withPassword] = [await certificateFeed(), await passwordFeed()];
    expect([withCertificate.status, withPassword.status]).toEqual([200, 200]);
    await authorizeAndCapture(gateway, 'TESTMERCHANT', byCertificate());
    const [certificateEvents, passwordEvents] = [
      await withCertificate.waitFor(3),
      await withPassword.waitFor(3),
    ];
    withCertificate.close();
    withPassword.close();
    await expectTransactionsAsRetrieved(
      merchantClient(gateway, 'TESTMERCHANT', 100, byCertificate()),
      certificateEvents,
    );
    await expectTransactionsAsRetrieved(
      merchantClient(gateway, 'TESTMERCHANT', 100, byPassword()),
      passwordEvents,
    );
    const card = (events: readonly ServerSentEvent[]) =>
      parsed(events)[1].transaction.sourceOfFunds.provided.card.number;
    expect([card(certificateEvents), card(passwordEvents)]).toEqual([
      '51234500xxxx0008',
      '512345xxxxxx0008',
    ]);
  });

  it("a certificate feed ends once the merchant's certificate changes (SIGHUP); its Basic feed goes on", async () => {
    const [withCertificate, withPassword] = [await certificateFeed(), await passwordFeed()];
    merchantCli(gateway, 'set-certificate', 'TESTMERCHANT', '--fingerprint', other.fingerprint256);
    await reloadMerchants(gateway);
    await ended(withCertificate);
    const order = await authorizeAndCapture(gateway, 'TESTMERCHANT', byPassword());
    expect(parsed(await withPassword.waitFor(3)).map((e) => e.orderId)).toEqual([
      order,
      order,
      order,
    ]);
    withPassword.close();
    expect(withCertificate.events).toEqual([]);
    expect((await certificateFeed()).status).toBe(401);
  });
});

describe('shutdown with open feeds', () => {
  it('ends open streams and exits promptly on SIGTERM', async () => {
    const gateway = await startGateway();
    const feed = await feedOf(gateway, 'TESTMERCHANT');
    expect(feed.status).toBe(200);
    const started = Date.now();
    expect(await gateway.stop('SIGTERM')).toBe(0);
    await feed.ended;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
