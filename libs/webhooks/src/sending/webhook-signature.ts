import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature (standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`. The key is the bytes of the merchant's notification secret, so a
 * merchant verifies with the secret `whsec_` + base64(notificationSecret) in any Standard
 * Webhooks library (or `new Webhook(notificationSecret, { format: 'raw' })` in the npm package).
 * Each attempt is signed afresh: receivers refuse timestamps more than five minutes off.
 */
export function standardWebhookHeaders(
  notificationSecret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = createHmac('sha256', Buffer.from(notificationSecret, 'utf8'))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}

/** The secret in the form Standard Webhooks libraries take. */
export function standardWebhookSecret(notificationSecret: string): string {
  return `whsec_${Buffer.from(notificationSecret, 'utf8').toString('base64')}`;
}
