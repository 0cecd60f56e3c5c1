import type { X509Certificate } from 'node:crypto';
import { matchesCertificate, type Merchant, type MerchantRegistry } from '@gateway/merchants';

/** The credentials a live feed was opened with, checked again for as long as it runs. */
export interface FeedAccess {
  readonly merchantId: string;
  /** Certificate authentication: cards show under the merchant's own masking. */
  readonly byCertificate: boolean;
  /**
   * The merchant as it stands now, while those credentials would still authenticate it; undefined
   * once they would not: merchant disabled or removed, API password changed (for Basic), or its
   * certificate no longer the one presented (for certificate authentication).
   */
  current(): Merchant | undefined;
}

export function feedAccess(
  merchants: Pick<MerchantRegistry, 'find'>,
  opened: Merchant,
  certificate: X509Certificate | undefined,
): FeedAccess {
  return {
    merchantId: opened.id,
    byCertificate: certificate !== undefined,
    current: () => {
      const merchant = merchants.find(opened.id);
      if (!merchant?.enabled) return undefined;
      const holds = certificate
        ? merchant.certificate !== undefined &&
          matchesCertificate(merchant.certificate, certificate)
        : merchant.passwordHash === opened.passwordHash;
      return holds ? merchant : undefined;
    },
  };
}
