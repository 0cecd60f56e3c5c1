import { createDecipheriv } from 'node:crypto';

/** Request bodies and helpers for the 3-D Secure and browser payment end-to-end suites. */

export const card = (number: string, securityCode = '100') => ({
  number,
  expiry: { month: '1', year: '39' },
  securityCode,
});

export const initiateAuthenticationBody = (
  number: string,
  extra: Record<string, unknown> = {},
) => ({
  apiOperation: 'INITIATE_AUTHENTICATION',
  authentication: {
    acceptVersions: '3DS2',
    channel: 'PAYER_BROWSER',
    purpose: 'PAYMENT_TRANSACTION',
  },
  order: { currency: 'USD' },
  sourceOfFunds: { provided: { card: card(number) } },
  ...extra,
});

export const authenticatePayerBody = (
  redirectResponseUrl = 'https://shop.example.com/3ds-return',
  extra: Record<string, unknown> = {},
) => ({
  apiOperation: 'AUTHENTICATE_PAYER',
  authentication: { redirectResponseUrl },
  device: { browser: 'Mozilla/5.0 (X11; Linux x86_64)' },
  order: { amount: '250.00', currency: 'USD' },
  ...extra,
});

/** INITIATE_BROWSER_PAYMENT at PROVIDER_A: the payer confirms at the provider's page. */
export const providerPaymentBody = (returnUrl = 'https://shop.example.com/payment-return') => ({
  apiOperation: 'INITIATE_BROWSER_PAYMENT',
  browserPayment: {
    operation: 'PAY',
    returnUrl,
    providerA: { paymentConfirmation: 'CONFIRM_AT_PROVIDER' },
  },
  order: { amount: '80.00', currency: 'EUR' },
  sourceOfFunds: {
    type: 'PROVIDER_A',
    provided: { providerA: { accountEmail: 'payer@example.com' } },
  },
});

/** Posts an HTML form the way a browser does; redirects are not followed. */
export async function postForm(url: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The hidden fields of the form a page auto-posts, by name. */
export function hiddenFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[match[1]] = match[2]
      .replaceAll('&#39;', "'")
      .replaceAll('&quot;', '"')
      .replaceAll('&amp;', '&');
  return fields;
}

/** What the merchant does with encryptedData: AES-256-GCM under the session's key. */
export function decryptEncryptedData(
  aes256Key: string,
  data: { ciphertext: string; nonce: string; tag: string },
): any {
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(aes256Key, 'base64'),
    Buffer.from(data.nonce, 'base64'),
  );
  decipher.setAuthTag(Buffer.from(data.tag, 'base64'));
  const plain = Buffer.concat([
    decipher.update(Buffer.from(data.ciphertext, 'base64')),
    decipher.final(),
  ]);
  return JSON.parse(plain.toString('utf8'));
}
