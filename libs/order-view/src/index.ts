/**
 * How an order is shown outside the event store: the API's responses (Retrieve Order and
 * Retrieve Transaction, the PUT's answer), the public order event built from them, and its
 * AsyncAPI document. Used by the gateway and the webhook dispatcher, which never import each other.
 */
export * from './html';
export * from './auto-post-form';
export * from './response-view';
export { redirectResponseFields } from './authentication.response';
export { lockFailure, renderOrder, renderTransaction } from './transaction.response';
export * from './public-order-event';
export * from './order-event.asyncapi';
