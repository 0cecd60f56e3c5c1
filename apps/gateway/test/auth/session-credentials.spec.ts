import { offeredSessionId } from '../../src/auth/session-credentials';

describe('offeredSessionId', () => {
  const SESSION = 'SESSION0002345678901234567890ABC';
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const request = (authorization: string | undefined, version = '61', sessionId = SESSION) => ({
    params: { version, merchantId: 'SHOP', sessionId },
    headers: { authorization },
  });

  it("takes the path's session id as the password of merchant.<id>, as Basic or as the iOS SDK's bare base64", () => {
    expect(offeredSessionId(request(`Basic ${b64(`merchant.SHOP:${SESSION}`)}`), 'SHOP')).toBe(
      SESSION,
    );
    expect(offeredSessionId(request(`basic ${b64(`merchant.SHOP:${SESSION}`)}`), 'SHOP')).toBe(
      SESSION,
    );
    expect(offeredSessionId(request(b64(`merchant.SHOP:${SESSION}`)), 'SHOP')).toBe(SESSION);
    expect(
      offeredSessionId(request(`Basic ${b64(`merchant.SHOP:${SESSION}`)}`, '50'), 'SHOP'),
    ).toBe(SESSION);
  });

  it('offers nothing below version 50, for another session, user or merchant, or without credentials', () => {
    const basic = (text: string) => `Basic ${b64(text)}`;
    for (const [authorization, version] of [
      [basic(`merchant.SHOP:${SESSION}`), '49'],
      [basic(`merchant.SHOP:${SESSION}`), '5x'],
      [basic(`merchant.SHOP:SESSION0002345678901234567890ABD`), '61'],
      [basic(`merchant.SHOP:api-password`), '61'],
      [basic(`merchant.OTHER:${SESSION}`), '61'],
      [basic(`SHOP:${SESSION}`), '61'],
      [`Bearer ${b64(`merchant.SHOP:${SESSION}`)}`, '61'],
      [undefined, '61'],
    ] as const)
      expect(offeredSessionId(request(authorization, version), 'SHOP')).toBeUndefined();
  });
});
