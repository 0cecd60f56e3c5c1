import type { OrderState } from './order.state';
import type { OrderStatus } from './order.types';

/**
 * Statuses in which no money is held and nothing is under way, so a new first transaction
 * (AUTHORIZE, PAY, VERIFY, INITIATE_AUTHENTICATION, INITIATE_BROWSER_PAYMENT) may follow with a new
 * transaction id: after a decline, a verification, or 3-D Secure authentication.
 */
const OPEN: ReadonlySet<OrderStatus> = new Set([
  'FAILED',
  'VERIFIED',
  'AUTHENTICATION_INITIATED',
  'AUTHENTICATED',
  'AUTHENTICATION_UNSUCCESSFUL',
]);

export function acceptsNewPayment(state: OrderState): boolean {
  return state.kind === 'NoOrder' || OPEN.has(state.status);
}
