import { holdWriteLock, inFlight, serverBusy } from '../support/gateway-load';
import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  merchantClient,
  orderIds,
  useGateway,
  type MerchantId,
} from '../support/gateway-process';
import { openFeed, type OpenFeed } from '../support/sse-client';
import { until } from '../support/until';

/** One merchant cannot take what the others need: its own caps on requests in progress and feeds. */
describe('per-merchant shares', () => {
  const under = useGateway({
    GATEWAY_MAX_IN_FLIGHT: '3',
    GATEWAY_MAX_IN_FLIGHT_PER_MERCHANT: '2',
    GATEWAY_MAX_FEEDS_PER_MERCHANT: '2',
  });
  const nextOrder = orderIds('share');
  const feedOf = (merchant: MerchantId) =>
    openFeed(merchantClient(under.gateway, merchant).url('/events'), {
      authorization: basicAuth(merchant, MERCHANTS[merchant]),
    });

  it("refuses a merchant's requests past its cap with 429, while another merchant is served", async () => {
    const { gateway } = under;
    const mine = merchantClient(gateway);
    const other = merchantClient(gateway, 'TESTOTHER');
    // Credentials checked once and remembered, so the requests below reach their append at once.
    expect((await mine.get('/order')).status).toBe(200);
    expect((await other.get('/order')).status).toBe(200);
    const lock = holdWriteLock(gateway);
    let held: Promise<unknown>[] = [];
    try {
      held = [1, 2].map(() => mine.put(`/order/${nextOrder()}/transaction/1`, authorizeBody()));
      await until(async () => (await inFlight(gateway)) === 2, 'two requests are in flight');

      const refused = await mine.put(`/order/${nextOrder()}/transaction/1`, authorizeBody());
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toEqual(
        serverBusy(
          'This merchant already has 2 requests in progress, the most it may have at once. Retry after 1 second',
        ),
      );
      expect((await other.get('/order')).status).toBe(200);
      expect((await fetch(`${gateway.baseUrl}/health/ready`)).status).toBe(200);
    } finally {
      lock.release();
    }
    for (const answer of await Promise.all(held))
      expect((answer as { status: number }).status).toBe(201);
  });

  it('caps the live feeds a merchant keeps open, apart from requests in flight', async () => {
    const { gateway } = under;
    const feeds: OpenFeed[] = [];
    try {
      feeds.push(await feedOf('TESTMERCHANT'), await feedOf('TESTMERCHANT'));
      expect(feeds.map((feed) => feed.status)).toEqual([200, 200]);
      const third = await fetch(merchantClient(gateway).url('/events'), {
        headers: { authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT) },
      });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('1');
      expect(await third.json()).toEqual(
        serverBusy(
          'This merchant already has 2 live feeds open, the most it may have at once. Close one, or retry later',
        ),
      );
      feeds.push(await feedOf('TESTOTHER'));
      expect(feeds[2].status).toBe(200);

      // Three feeds open, the in-flight limit 3: feeds are not requests in flight.
      const order = nextOrder();
      expect(
        (await merchantClient(gateway).put(`/order/${order}/transaction/1`, authorizeBody()))
          .status,
      ).toBe(201);
      const [event] = await feeds[0].waitFor(1);
      expect(JSON.parse(event.data)).toMatchObject({ orderId: order });

      feeds.shift()!.close();
      let again: OpenFeed | undefined;
      await until(async () => {
        again?.close();
        again = await feedOf('TESTMERCHANT');
        return again.status === 200;
      }, 'a feed can be opened again once one closed');
      feeds.push(again!);
    } finally {
      for (const feed of feeds) feed.close();
    }
  });
});
