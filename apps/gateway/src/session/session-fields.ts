import type { Field, GroupField } from '@gateway/contract';
import { maskCardNumber, type CardMask } from '@gateway/domain';
import { maskedAccountDetails } from '../transaction/source-of-funds.mapper';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request with the session's fields beneath it (spec, session.version: request values override
 * session values). Only fields the operation's contract declares are taken from the session, so a
 * session filled for one operation can serve another: AUTHORIZE ignores its redirectResponseUrl.
 */
export function withSessionFields(contract: GroupField, session: Json, request: Json): Json {
  const merged: Json = { ...request };
  for (const [name, stored] of Object.entries(session)) {
    const field: Field | undefined = contract.fields[name];
    if (!field || stored === undefined) continue;
    const sent = request[name];
    if (field.kind === 'group' && isObject(stored)) {
      const below = withSessionFields(field, stored, isObject(sent) ? sent : {});
      if (sent === undefined || sent === null || isObject(sent)) {
        if (Object.keys(below).length) merged[name] = below;
      }
    } else if (sent === undefined || sent === null) merged[name] = stored;
  }
  return merged;
}

/** Fields as Update Session stores them: later updates replace earlier values field by field. */
export function mergeUpdate(stored: Json, update: Json): Json {
  const merged: Json = { ...stored };
  for (const [name, value] of Object.entries(update)) {
    merged[name] =
      isObject(value) && isObject(stored[name]) ? mergeUpdate(stored[name] as Json, value) : value;
  }
  return merged;
}

/**
 * What Retrieve Session shows: the card number masked (6.4 by default), never the security code;
 * account numbers, IBANs and gift card numbers masked and PINs left out, as in transactions. These
 * are the only fields where a session may hold a card-like number (contract, card-data-guard.ts).
 */
export function maskedSessionFields(fields: Json, mask: CardMask = '6.4'): Json {
  const safe = withoutSecurityCode(fields);
  const provided = (safe.sourceOfFunds as Json | undefined)?.provided;
  if (!isObject(provided)) return safe;
  const shown: Json = {};
  for (const [group, details] of Object.entries(provided)) {
    if (!isObject(details)) shown[group] = details;
    else if (group !== 'card') shown[group] = maskedAccountDetails(details);
    else if (typeof details.number !== 'string') shown[group] = details;
    else shown[group] = { ...details, number: maskCardNumber(details.number, mask) };
  }
  return { ...safe, sourceOfFunds: { ...(safe.sourceOfFunds as Json), provided: shown } };
}

/** The fields without the card security code: it is used once, then forgotten. */
export function withoutSecurityCode(fields: Json): Json {
  const card = cardOf(fields);
  if (!card || card.securityCode === undefined) return fields;
  const { securityCode: _used, ...rest } = card;
  const sourceOfFunds = fields.sourceOfFunds as Json;
  return {
    ...fields,
    sourceOfFunds: {
      ...sourceOfFunds,
      provided: { ...(sourceOfFunds.provided as Json), card: rest },
    },
  };
}

function cardOf(fields: Json): Json | undefined {
  const provided = (fields.sourceOfFunds as Json | undefined)?.provided;
  return isObject(provided) && isObject(provided.card) ? provided.card : undefined;
}
