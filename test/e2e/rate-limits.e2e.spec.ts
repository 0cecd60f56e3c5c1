import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';

/**
 * GATEWAY_RATE_LIMIT sets every merchant's requests per second; a merchant's `rateLimit` in the
 * merchants file overrides it (0: no limit).
 */
describe('per-merchant request rate limits', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    const dataDir = await makeDataDir();
    const file = join(dataDir, 'merchants.json');
    const document = JSON.parse(readFileSync(file, 'utf8'));
    const overrides: Record<string, number> = { TESTOTHER: 0, LIVEMERCHANT: 2 };
    for (const merchant of document.merchants)
      if (merchant.id in overrides) merchant.rateLimit = overrides[merchant.id];
    writeFileSync(file, JSON.stringify(document));
    gateway = await startGateway(dataDir, { GATEWAY_RATE_LIMIT: '5' });
  });
  afterAll(() => gateway?.stop());

  const burst = (merchant: 'TESTMERCHANT' | 'TESTOTHER' | 'LIVEMERCHANT', count: number) => {
    const api = merchantClient(gateway, merchant);
    return Promise.all(Array.from({ length: count }, () => api.get('/order/rate-none')));
  };

  it('answers 429 SERVER_BUSY with Retry-After beyond the default limit, then lets requests through again', async () => {
    const answers = await burst('TESTMERCHANT', 12);
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(5);
    expect(limited).toHaveLength(7);
    for (const answer of limited) {
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body).toEqual({
        result: 'ERROR',
        error: {
          cause: 'SERVER_BUSY',
          explanation:
            'The request rate limit of 5 per second for this merchant is exceeded. Retry after 1 second',
        },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await burst('TESTMERCHANT', 1))[0].status).toBe(404);
  });

  it("applies a merchant's own limit from the merchants file", async () => {
    const answers = await burst('LIVEMERCHANT', 6);
    expect(answers.map((a) => a.status).sort()).toEqual([404, 404, 429, 429, 429, 429]);
  });

  it('a merchant with rateLimit 0 has no limit', async () => {
    const answers = await burst('TESTOTHER', 30);
    expect(answers.every((a) => a.status === 404)).toBe(true);
  });
});
