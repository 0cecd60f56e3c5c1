import type { RequestBase } from '@gateway/domain';
import { get, optionalString, type Body } from '../transaction/body-fields';
import type { ParseContext } from './slice';

/** Spec, Limits: DCC and sub-merchant data only on the initial transaction of an order. */
const FIRST_TRANSACTION_ONLY = ['order.subMerchant', 'currencyConversion'];

/** Fields that are not echoed: card data, credentials, and what the transaction itself records. */
const NOT_ECHOED = new Set([
  'apiOperation',
  'correlationId',
  'sourceOfFunds',
  'session',
  'responseControls',
  'transaction',
  '3DSecure',
  'authentication',
  'browserPayment',
  'partnerSolutionId',
]);
const ORDER_NOT_ECHOED = new Set(['amount', 'currency', 'notificationUrl', 'acceptPartialAmount']);

function echoOf(body: Body): Body {
  const echo: Body = {};
  for (const [key, value] of Object.entries(body)) {
    if (NOT_ECHOED.has(key)) continue;
    if (key === 'order' && value && typeof value === 'object') {
      const order = Object.fromEntries(
        Object.entries(value).filter(([k]) => !ORDER_NOT_ECHOED.has(k)),
      );
      if (Object.keys(order).length) echo.order = order;
    } else echo[key] = value;
  }
  return echo;
}

/** What every operation's request carries: ids, time, version, the echo, the notification URL. */
export function requestBase(body: Body, ctx: ParseContext): RequestBase {
  const firstTransactionOnly = FIRST_TRANSACTION_ONLY.filter(
    (path) => get(body, path) !== undefined,
  );
  const { protect: _protect, ...ids } = ctx;
  const notificationUrl = optionalString(body, 'order.notificationUrl');
  return {
    ...ids,
    echo: echoOf(body),
    ...(firstTransactionOnly.length ? { firstTransactionOnly } : {}),
    ...(notificationUrl ? { notificationUrl } : {}),
  };
}

/** transaction.reference, when sent (AUTHORIZE, PAY, CAPTURE, REFUND, VOID). */
export function referenceOf(body: Body): { reference?: string } {
  const reference = optionalString(body, 'transaction.reference');
  return reference !== undefined ? { reference } : {};
}

/** session.id, when sent (the 3-D Secure operations). */
export function sessionOf(body: Body): { sessionId?: string } {
  const sessionId = optionalString(body, 'session.id');
  return sessionId !== undefined ? { sessionId } : {};
}
