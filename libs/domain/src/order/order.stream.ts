/** One stream per (merchant, order). Merchant ids cannot contain ':', so the prefix `order:M:` is M's alone. */
export const ORDER_STREAM_PREFIX = 'order:';

export function orderStreamId(merchantId: string, orderId: string): string {
  return `${ORDER_STREAM_PREFIX}${merchantId}:${orderId}`;
}

export function merchantStreamPrefix(merchantId: string): string {
  return `${ORDER_STREAM_PREFIX}${merchantId}:`;
}

/** The merchant and order of an order stream id; undefined for any other stream. */
export function parseOrderStreamId(
  streamId: string,
): { readonly merchantId: string; readonly orderId: string } | undefined {
  if (!streamId.startsWith(ORDER_STREAM_PREFIX)) return undefined;
  const rest = streamId.slice(ORDER_STREAM_PREFIX.length);
  const colon = rest.indexOf(':');
  return colon < 1
    ? undefined
    : { merchantId: rest.slice(0, colon), orderId: rest.slice(colon + 1) };
}
