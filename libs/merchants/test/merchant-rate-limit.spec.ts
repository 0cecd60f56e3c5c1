import { MerchantFileError, parseMerchants } from '../src/merchant-registry';
import { hashPassword } from '../src/password-hash';

describe('merchants file: rateLimit', () => {
  let hash: string;
  beforeAll(async () => {
    hash = await hashPassword('pw');
  });
  const parse = (rateLimit: unknown) =>
    parseMerchants(
      {
        merchants: [
          {
            id: 'TESTA',
            passwordHash: hash,
            notificationSecret: 'NOTIFICATION-SECRET-0001',
            rateLimit,
          },
        ],
      },
      'merchants.json',
    );

  it('is optional, and taken as requests per second when given', () => {
    expect(parse(undefined)[0].rateLimit).toBeUndefined();
    expect(parse(0)[0].rateLimit).toBe(0);
    expect(parse(250)[0].rateLimit).toBe(250);
  });

  it.each([-1, 2.5, '100', null, 1_000_001])('refuses %p, naming the entry', (value) => {
    expect(() => parse(value)).toThrow(MerchantFileError);
    expect(() => parse(value)).toThrow(
      'merchants[0].rateLimit must be a whole number of requests per second from 0 to 1000000',
    );
  });
});
