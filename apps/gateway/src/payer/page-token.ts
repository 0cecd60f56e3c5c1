import { createHmac, timingSafeEqual } from 'node:crypto';

/** The challenge page, a provider page, and a step of the checkout page (checkout/). */
export type PageKind = 'acs' | 'provider' | 'checkout';

export interface PageTarget {
  readonly kind: PageKind;
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
}

/**
 * The payer's pages carry no credentials: a page is authorised by its token, the transaction it
 * is for, signed with a key in GATEWAY_DATA_DIR (HMAC-SHA256). It cannot be guessed or altered;
 * it is single-use because the order's state accepts each step once.
 */
export class PageTokens {
  constructor(private readonly key: Buffer) {}

  issue(target: PageTarget): string {
    const payload = Buffer.from(
      JSON.stringify([target.kind, target.merchantId, target.orderId, target.transactionId]),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The target the token was issued for, or undefined when it is not one of ours. */
  read(token: string, kind: PageKind): PageTarget | undefined {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const parts: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parts) || parts.length !== 4 || parts[0] !== kind) return undefined;
    const [, merchantId, orderId, transactionId] = parts as string[];
    return { kind, merchantId, orderId, transactionId };
  }

  private sign(payload: string): string {
    // 128 bits of the MAC: unforgeable, and the URL stays short.
    return createHmac('sha256', this.key)
      .update(payload)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
