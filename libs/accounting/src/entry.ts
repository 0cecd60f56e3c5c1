import type { Thousandths } from '@gateway/domain';
import type { Account } from './accounts';

/** One side of an entry: a debit or a credit, a positive amount of thousandths. */
export type Line =
  | { readonly account: Account; readonly debit: Thousandths }
  | { readonly account: Account; readonly credit: Thousandths };

/**
 * A journal entry: what one event did to one merchant's accounts in one currency. Its debits
 * equal its credits. `entryId` is the event's log position and the entry's index among the
 * event's entries (`<position>/<n>`), so a rebuild gives every entry the same id.
 */
export interface Entry {
  readonly entryId: string;
  /** When the gateway recorded the event's fact (factTimeOf): what `--as-of` compares. */
  readonly time: string;
  readonly merchantId: string;
  readonly currency: string;
  readonly orderId: string;
  readonly transactionId?: string;
  readonly eventType: string;
  readonly lines: readonly Line[];
}

/** The line as a signed amount: debits positive, credits negative (how the store keeps it). */
export function signedAmount(line: Line): Thousandths {
  return 'debit' in line ? line.debit : -line.credit;
}

/** A line from a signed amount: the reverse of signedAmount. */
export function lineOf(account: Account, signed: Thousandths): Line {
  return signed >= 0 ? { account, debit: signed } : { account, credit: -signed };
}

/** Debits less credits: zero for a balanced entry. */
export function imbalanceOf(lines: readonly Line[]): Thousandths {
  return lines.reduce((sum, line) => sum + signedAmount(line), 0);
}

/**
 * A transfer of `amount` from `credited` to `debited`: two lines, sides swapped when the amount
 * is negative (a movement undone), none when it is zero.
 */
export function transfer(debited: Account, credited: Account, amount: Thousandths): Line[] {
  if (amount === 0) return [];
  return [lineOf(debited, amount), lineOf(credited, -amount)];
}
