import { stricterMask, type CardMask } from '@gateway/domain';

/** What a response may show: the card mask, and whether bank numbers are unmasked. */
export interface ResponseView {
  readonly cardMask: CardMask;
  readonly unmask?: (sealed: string, field: string) => string | undefined;
}

/**
 * Spec: with certificate authentication the merchant's masking setting applies, otherwise the
 * stricter of it and 6.4.
 */
export function cardMaskFor(merchant: { readonly cardMask: CardMask }, byCertificate: boolean) {
  return byCertificate ? merchant.cardMask : stricterMask(merchant.cardMask, '6.4');
}

/** Responses with no caller's settings to apply: the payer's pages, for one. */
export const MASKED_VIEW: ResponseView = { cardMask: '6.4' };
