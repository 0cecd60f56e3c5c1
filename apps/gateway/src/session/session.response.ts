import type { CardMask } from '@gateway/domain';
import type { StoredSession } from './session.store';
import { maskedSessionFields } from './session-fields';

type Json = Record<string, unknown>;

/**
 * A session as Create, Update and Retrieve Session answer: its fields with the card masked (6.4
 * unless the caller's masking says otherwise) and no security code. The AES-256 key is shown once, when the session is created.
 */
export function renderSession(
  session: StoredSession,
  updateStatus: 'NO_UPDATE' | 'SUCCESS',
  withKey = false,
  cardMask: CardMask = '6.4',
): Json {
  return {
    ...maskedSessionFields(session.content.fields as Json, cardMask),
    merchant: session.merchantId,
    result: 'SUCCESS',
    session: {
      ...(withKey ? { aes256Key: session.content.aes256Key } : {}),
      id: session.id,
      updateStatus,
      version: session.version,
    },
  };
}

/** Spec, correlationId: transient, echoed in the response (as operations echo it). */
export function withCorrelationId(rendered: Json, body: unknown): Json {
  const correlationId = (body as Json | undefined)?.correlationId;
  return typeof correlationId === 'string' ? { ...rendered, correlationId } : rendered;
}
