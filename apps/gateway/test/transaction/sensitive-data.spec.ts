import type { Merchant } from '@gateway/merchants';
import { createHmac, randomBytes } from 'node:crypto';
import { AesGcmKeyring } from '../../src/crypto/aes-gcm-keyring';
import { SensitiveData } from '../../src/transaction/sensitive-data';

/** A fixed card-fingerprint.key: the values below were recorded with `createHmac`. */
const KEY = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');

function merchant(id: string): Merchant {
  return {
    id,
    passwordHash: '',
    enabled: true,
    notificationSecret: 'secret',
    test: id.startsWith('TEST'),
    permissions: [],
    cardMask: '6.4',
  };
}

function fingerprintOf(key: Buffer, merchantId: string, cardNumber: string): string {
  return new SensitiveData(key, AesGcmKeyring.ofKey(randomBytes(32)))
    .protectionFor(merchant(merchantId), 'order-1')
    .fingerprint(cardNumber);
}

describe('SensitiveData card fingerprints', () => {
  it('are the values recorded before (fingerprints in stores keep matching)', () => {
    expect(fingerprintOf(KEY, 'TESTMERCHANT01', '4111111111111111')).toBe(
      '44X9OepfN26n6CBOKH0XoXygTSCp19ohCpraIOZ-1RU',
    );
    expect(fingerprintOf(KEY, 'merchant-é', '5123450000000008')).toBe(
      'LEc27w8EU1W-zR9FX-0mbJo4_ET3Y9ohV25_tRe2t_g',
    );
  });

  it.each([16, 32, 64, 100])(
    'equal HMAC-SHA256 of merchant and card with a %i-byte key',
    (size) => {
      const key = randomBytes(size);
      for (const id of ['TESTMERCHANT01', 'M', 'ünïcode-✓-😀'])
        for (const card of ['4111111111111111', '5123450000000008', '6'.repeat(19)])
          expect(fingerprintOf(key, id, card)).toBe(
            createHmac('sha256', key).update(`${id}\n${card}`).digest('base64url'),
          );
    },
  );

  it('differ between merchants for one card', () => {
    expect(fingerprintOf(KEY, 'A', '4111111111111111')).not.toBe(
      fingerprintOf(KEY, 'B', '4111111111111111'),
    );
  });
});
