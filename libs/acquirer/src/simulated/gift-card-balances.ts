import { createHash } from 'node:crypto';
import type { Thousandths } from '../../../domain/src/money';

/** Decided here: a gift card the simulator has not seen holds 500.00 in the currency it is first used in. */
export const OPENING_GIFT_CARD_BALANCE: Thousandths = 500_000;

export interface GiftCardSpend {
  readonly outcome: 'APPROVED' | 'PARTIALLY_APPROVED' | 'INSUFFICIENT_FUNDS';
  readonly approvedAmount: Thousandths;
  readonly balance: Thousandths;
}

/**
 * The issuer side of gift cards: balances per card and currency, kept in this process only (a
 * simulator's issuer state; a restart refills every card). Cards are keyed by a hash, so the map
 * never holds a card number.
 */
export class GiftCardBalances {
  private readonly balances = new Map<string, Thousandths>();

  spend(
    number: string,
    currency: string,
    amount: Thousandths,
    acceptPartialAmount: boolean,
  ): GiftCardSpend {
    const key = createHash('sha256').update(`${number}\0${currency}`).digest('base64');
    const balance = this.balances.get(key) ?? OPENING_GIFT_CARD_BALANCE;
    const spent = amount <= balance ? amount : acceptPartialAmount ? balance : 0;
    if (spent === 0 && amount > 0)
      return { outcome: 'INSUFFICIENT_FUNDS', approvedAmount: 0, balance };
    this.balances.set(key, balance - spent);
    return {
      outcome: spent === amount ? 'APPROVED' : 'PARTIALLY_APPROVED',
      approvedAmount: spent,
      balance: balance - spent,
    };
  }

  balanceOf(number: string, currency: string): Thousandths {
    return (
      this.balances.get(createHash('sha256').update(`${number}\0${currency}`).digest('base64')) ??
      OPENING_GIFT_CARD_BALANCE
    );
  }
}
