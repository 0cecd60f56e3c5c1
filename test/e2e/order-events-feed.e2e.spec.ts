import { openFeed } from '../support/sse-client';
import {
  authorizeBody,
  basicAuth,
  merchantClient,
  MERCHANTS,
  orderIds,
  startGateway,
  useGateway,
} from '../support/gateway-process';

const under = useGateway();
const nextOrder = orderIds('feed');

function feedOf(merchant: keyof typeof MERCHANTS, lastEventId?: string) {
  return openFeed(merchantClient(under.gateway, merchant).url('/events'), {
    authorization: basicAuth(merchant, MERCHANTS[merchant]),
    ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
  });
}

async function authorizeAndCapture(merchant: keyof typeof MERCHANTS = 'TESTMERCHANT') {
  const api = merchantClient(under.gateway, merchant);
  const order = nextOrder();
  expect((await api.put(`/order/${order}/transaction/a`, authorizeBody('20.00'))).status).toBe(201);
  const capture = { apiOperation: 'CAPTURE', transaction: { amount: '5.00', currency: 'USD' } };
  expect((await api.put(`/order/${order}/transaction/c`, capture)).status).toBe(201);
  return order;
}

describe('live order event feed (server-sent events)', () => {
  it('streams new events live: id = global position, event = type, data = the envelope', async () => {
    const feed = await feedOf('TESTMERCHANT');
    expect(feed.status).toBe(200);
    expect(feed.contentType).toMatch(/^text\/event-stream/);
    const order = await authorizeAndCapture();
    const events = await feed.waitFor(3);
    feed.close();
    const envelopes = events.map((e) => JSON.parse(e.data));
    expect(envelopes.map((e) => [e.orderId, e.revision])).toEqual([
      [order, 0],
      [order, 1],
      [order, 2],
    ]);
    for (const [i, e] of events.entries()) {
      expect(e.id).toBe(envelopes[i].position);
      expect(e.event).toBe(envelopes[i].type);
      expect(envelopes[i]).toMatchObject({ specVersion: 1, merchantId: 'TESTMERCHANT' });
    }
    expect(events.map((e) => e.data).join('')).not.toContain('5123450000000008');
  });

  it('resumes after Last-Event-ID with no gap and no duplicate', async () => {
    const live = await feedOf('TESTMERCHANT');
    for (let i = 0; i < 4; i++) await authorizeAndCapture();
    const all = await live.waitFor(12);
    live.close();

    // A client that saw the first five reconnects; meanwhile two more orders happen.
    const seen = all.slice(0, 5);
    for (let i = 0; i < 2; i++) await authorizeAndCapture();
    const resumed = await feedOf('TESTMERCHANT', seen[4].id);
    const rest = await resumed.waitFor(7 + 6);
    resumed.close();
    const ids = [...seen, ...rest].map((e) => e.id);
    expect(ids.slice(0, 12)).toEqual(all.map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
    const positions = ids.map((id) => BigInt(id!));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("shows each merchant only its own orders' events", async () => {
    const mine = await feedOf('TESTMERCHANT', '0');
    const theirs = await feedOf('TESTOTHER', '0');
    const otherOrder = await authorizeAndCapture('TESTOTHER');
    const myOrder = await authorizeAndCapture('TESTMERCHANT');
    await theirs.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await mine.waitFor(3);
    mine.close();
    theirs.close();
    const merchantsSeen = (feed: typeof mine) =>
      new Set(feed.events.map((e) => JSON.parse(e.data).merchantId));
    expect(merchantsSeen(mine)).toEqual(new Set(['TESTMERCHANT']));
    expect(merchantsSeen(theirs)).toEqual(new Set(['TESTOTHER']));
    expect(theirs.events.map((e) => JSON.parse(e.data).orderId)).toContain(otherOrder);
    expect(mine.events.map((e) => JSON.parse(e.data).orderId)).toContain(myOrder);
    expect(mine.events.map((e) => JSON.parse(e.data).orderId)).not.toContain(otherOrder);
  });

  it('needs the credentials of the merchant in the path, and a valid Last-Event-ID', async () => {
    const wrong = await openFeed(merchantClient(under.gateway, 'TESTMERCHANT').url('/events'), {
      authorization: basicAuth('TESTOTHER', MERCHANTS.TESTOTHER),
    });
    expect(wrong.status).toBe(401);
    await wrong.ended;
    const bad = await merchantClient(under.gateway).get('/events', { 'last-event-id': '12abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field: 'Last-Event-ID' });
  });
});

describe('shutdown with open feeds', () => {
  it('ends open streams and exits promptly on SIGTERM', async () => {
    const gateway = await startGateway();
    const feed = await openFeed(merchantClient(gateway).url('/events'), {
      authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT),
    });
    expect(feed.status).toBe(200);
    const started = Date.now();
    expect(await gateway.stop('SIGTERM')).toBe(0);
    await feed.ended;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
