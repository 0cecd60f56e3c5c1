import type { Merchant } from '@gateway/merchants';
import { MerchantRateLimiter } from '../../src/protection/merchant-rate-limiter';

const merchant = (id: string, rateLimit?: number) =>
  ({
    id,
    passwordHash: '',
    enabled: true,
    notificationSecret: '',
    test: true,
    rateLimit,
  }) as Merchant;

describe('MerchantRateLimiter', () => {
  let now = 0;
  const limiter = (perSecond: number) => new MerchantRateLimiter(perSecond, () => now);

  it('grants a burst of one second worth of requests, then asks to wait', () => {
    const limits = limiter(5);
    const shop = merchant('SHOP');
    expect(Array.from({ length: 7 }, () => limits.take(shop))).toEqual([0, 0, 0, 0, 0, 1, 1]);
  });

  it('refills continuously at the rate', () => {
    const limits = limiter(4);
    const shop = merchant('SHOP');
    for (let i = 0; i < 4; i++) limits.take(shop);
    now += 250;
    expect(limits.take(shop)).toBe(0);
    expect(limits.take(shop)).toBe(1);
  });

  it("uses the merchant's own limit over the default; 0 is no limit", () => {
    const limits = limiter(1);
    const unlimited = merchant('BIG', 0);
    const slow = merchant('SLOW', 2);
    expect(Array.from({ length: 100 }, () => limits.take(unlimited)).every((w) => w === 0)).toBe(
      true,
    );
    expect([limits.take(slow), limits.take(slow), limits.take(slow)]).toEqual([0, 0, 1]);
    expect(limits.limitOf(slow)).toBe(2);
    expect(limiter(0).take(merchant('ANY'))).toBe(0);
  });

  it('keeps merchants apart', () => {
    const limits = limiter(1);
    expect(limits.take(merchant('A'))).toBe(0);
    expect(limits.take(merchant('A'))).toBe(1);
    expect(limits.take(merchant('B'))).toBe(0);
  });
});
