import type { EncryptedData, ThreeDsResult } from '@gateway/domain';
import { createCipheriv, randomBytes } from 'node:crypto';
import type { PaymentSessions } from '../session/payment-sessions';

/**
 * encryptedData (spec, Authenticate Payer response): the authentication's result as JSON under the
 * payment session's AES-256 key, in GCM mode, with a 96-bit nonce (16 base64 characters) and a
 * 128-bit tag (24). No card number goes in: the merchant knows its card already.
 */
function encryptForMerchant(
  key: Buffer,
  ids: { orderId: string; transactionId: string },
  result: ThreeDsResult,
): EncryptedData {
  const payload = {
    authentication: {
      '3ds': {
        ...(result.acsEci !== undefined ? { acsEci: result.acsEci } : {}),
        ...(result.authenticationToken !== undefined
          ? { authenticationToken: result.authenticationToken }
          : {}),
        transactionId: result.acsTransactionId,
      },
      '3ds2': {
        dsTransactionId: result.dsTransactionId,
        ...(result.statusReasonCode !== undefined
          ? { statusReasonCode: result.statusReasonCode }
          : {}),
        transactionStatus: result.transactionStatus,
      },
    },
    order: { id: ids.orderId },
    transaction: { authenticationStatus: result.status, id: ids.transactionId },
  };
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const ciphertext = Buffer.concat([
    cipher.update(JSON.stringify(payload), 'utf8'),
    cipher.final(),
  ]);
  return {
    ciphertext: ciphertext.toString('base64'),
    nonce: nonce.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
}

/** encryptedData, when the authentication came with a payment session whose key is known. */
export async function encryptedForSession(
  sessions: PaymentSessions,
  ids: { merchantId: string; orderId: string; transactionId: string },
  sessionId: string | undefined,
  result: ThreeDsResult,
): Promise<{ encryptedData?: EncryptedData }> {
  const key = sessionId ? await sessions.keyOf(ids.merchantId, sessionId) : undefined;
  return key ? { encryptedData: encryptForMerchant(key, ids, result) } : {};
}
