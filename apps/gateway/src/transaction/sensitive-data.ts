import type { CardMask } from '@gateway/domain';
import { cardMaskFor, type ResponseView } from '@gateway/order-view';
import type { AesGcmKeyring } from '../crypto/aes-gcm-keyring';
import { HmacSha256 } from '../crypto/hmac-sha256';
import type { Merchant } from '@gateway/merchants';

/** How a source of funds is recorded for one merchant's order (source-of-funds mapping). */
export interface RecordProtection {
  /** The most of a card number this merchant may ever be shown: the recorded mask. */
  readonly cardMask: CardMask;
  fingerprint(cardNumber: string): string;
  /** Seals a bank number the merchant may later UNMASK; absent when it may not. */
  readonly seal?: (clear: string, field: string) => string;
}

/**
 * Card and bank data at rest. A card is recorded as its mask and a fingerprint: an HMAC-SHA256
 * under a key of this installation, per merchant, so the same card is recognised without a
 * digest that could be brute-forced back to the number (a card number has few unknown digits),
 * and without linking one merchant's customers to another's. Bank account
 * numbers and IBANs of merchants allowed to UNMASK are sealed with AES-256-GCM (the keyring's
 * current key, its id in the ciphertext), bound to merchant, order and field.
 */
export class SensitiveData {
  /** One HMAC for every merchant: the merchant id is the first part of each message. */
  private readonly fingerprints: HmacSha256;

  constructor(
    fingerprintKey: Buffer,
    private readonly keyring: AesGcmKeyring,
  ) {
    this.fingerprints = new HmacSha256(fingerprintKey);
  }

  protectionFor(merchant: Merchant, orderId: string): RecordProtection {
    return {
      cardMask: merchant.cardMask,
      fingerprint: (cardNumber) => this.cardFingerprint(merchant.id, cardNumber),
      ...(merchant.permissions.includes('UNMASK')
        ? {
            seal: (clear: string, field: string) =>
              this.keyring.sealText(clear, boundTo(merchant.id, orderId, field)),
          }
        : {}),
    };
  }

  /** The merchant's fingerprint of a card number (as recorded with orders and card tokens). */
  cardFingerprint(merchantId: string, cardNumber: string): string {
    return this.fingerprints.of(`${merchantId}\n`, cardNumber);
  }

  /** `unmask` only once the controller has checked certificate and permission. */
  viewFor(
    merchant: Merchant,
    orderId: string,
    access: { byCertificate: boolean; unmask?: boolean },
  ): ResponseView {
    const cardMask = cardMaskFor(merchant, access.byCertificate);
    if (!access.unmask) return { cardMask };
    return {
      cardMask,
      unmask: (sealed, field) =>
        this.keyring.openText(sealed, boundTo(merchant.id, orderId, field)),
    };
  }
}

function boundTo(merchantId: string, orderId: string, field: string): string {
  return `${merchantId}\n${orderId}\n${field}`;
}
