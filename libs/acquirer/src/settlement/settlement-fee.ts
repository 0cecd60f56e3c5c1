import type { Thousandths } from '@gateway/domain';

/** Per funding method: a rate in basis points and a fixed part in thousandths (behaviour notes). */
const FEES: Readonly<Record<string, { readonly bps: number; readonly fixed: Thousandths }>> = {
  CREDIT: { bps: 150, fixed: 100 },
  DEBIT: { bps: 50, fixed: 50 },
  CHARGE: { bps: 250, fixed: 0 },
};

/**
 * The acquirer's fee contract, one function for the gateway's settlement and the ledger's
 * reconciliation: the fee on a settled amount, rate and fixed part of the card's funding method,
 * the rate's part rounded half up to the thousandth; none for other funding (UNKNOWN, non-card
 * sources). Refunds carry no fee: the caller does not ask.
 */
export function feeOf(amount: Thousandths, fundingMethod: string | undefined): Thousandths {
  const fee = fundingMethod ? FEES[fundingMethod] : undefined;
  return fee ? Math.floor((amount * fee.bps + 5_000) / 10_000) + fee.fixed : 0;
}
