import { randomBytes } from 'node:crypto';
import { PageTokens } from '../../src/payer/page-token';

describe('payer page tokens', () => {
  const tokens = new PageTokens(randomBytes(32));
  const target = {
    kind: 'acs',
    merchantId: 'TESTM',
    orderId: 'o-1',
    transactionId: 't-1',
  } as const;

  it('names the transaction it was issued for', () => {
    expect(tokens.read(tokens.issue(target), 'acs')).toEqual(target);
  });

  it('is refused for another kind of page', () => {
    expect(tokens.read(tokens.issue(target), 'provider')).toBeUndefined();
  });

  it('is refused when altered or signed with another key', () => {
    const token = tokens.issue(target);
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify(['acs', 'TESTM', 'o-2', 't-1'])).toString(
      'base64url',
    );
    expect(tokens.read(`${forged}.${signature}`, 'acs')).toBeUndefined();
    expect(tokens.read(`${payload}.${signature}x`, 'acs')).toBeUndefined();
    expect(new PageTokens(randomBytes(32)).read(token, 'acs')).toBeUndefined();
    expect(tokens.read('garbage', 'acs')).toBeUndefined();
  });
});
