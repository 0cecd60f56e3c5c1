/** One stream per (merchant, order). Merchant ids cannot contain ':', so the prefix `order:M:` is M's alone. */
export const ORDER_STREAM_PREFIX = 'order:';

export function orderStreamId(merchantId: string, orderId: string): string {
  return `${ORDER_STREAM_PREFIX}${merchantId}:${orderId}`;
}

export function merchantStreamPrefix(merchantId: string): string {
  return `${ORDER_STREAM_PREFIX}${merchantId}:`;
}
