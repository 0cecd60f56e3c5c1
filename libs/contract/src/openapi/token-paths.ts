import { VERIFICATION_STRATEGIES } from '../token/save-card.contract';
import { json, param, ref, type JsonSchema } from './json-schema';
import type { Errors } from './merchant-paths';
import { dateTime, object, oneOfValues, text } from './response-schemas';

/**
 * The card token paths (behaviour notes, Stored cards: Save Card), their parameter and answer, as
 * apps/gateway/src/card-vault renders them.
 */

const MERCHANT = '/api/rest/version/{version}/merchant/{merchantId}';
const saveBody = {
  required: true,
  description: 'The card (or session.id of a session holding it), never a security code',
  content: { 'application/json': { schema: ref('SaveCardRequest') } },
};

export const tokenParameter: JsonSchema = {
  name: 'tokenId',
  in: 'path',
  required: true,
  description: 'A token the gateway issued, or one the merchant names: 1-40 letters and digits',
  schema: { type: 'string', pattern: '^[A-Za-z0-9]{1,40}$' },
};

export function tokenPaths(errors: Errors): Record<string, JsonSchema> {
  const common = [param('version'), param('merchantId')];
  return {
    [`${MERCHANT}/token`]: {
      parameters: common,
      post: {
        operationId: 'saveCard',
        tags: ['Tokens'],
        summary: "Save Card: the gateway issues the card's token",
        description:
          "The same card saved again by the merchant gets the same token. An issued token is 16 digits, starts with 9, ends with the card's last four and fails the Luhn check.",
        requestBody: saveBody,
        responses: {
          '201': json('The token', 'TokenResponse'),
          ...errors('400', '401', '429', '500', '503'),
        },
      },
    },
    [`${MERCHANT}/token/{tokenId}`]: {
      parameters: [...common, param('tokenId')],
      put: {
        operationId: 'putToken',
        tags: ['Tokens'],
        summary: 'Create (201) or update (200) the token the merchant names',
        requestBody: saveBody,
        responses: {
          '200': json('The token, updated', 'TokenResponse'),
          '201': json('The token, created', 'TokenResponse'),
          ...errors('400', '401', '429', '500', '503'),
        },
      },
      get: {
        operationId: 'retrieveToken',
        tags: ['Tokens'],
        summary: 'Retrieve a token, its card masked',
        responses: {
          '200': json('The token', 'TokenResponse'),
          ...errors('400', '401', '404', '429', '500', '503'),
        },
      },
      delete: {
        operationId: 'deleteToken',
        tags: ['Tokens'],
        summary: 'Delete a token: its card number is destroyed',
        responses: {
          '200': json('Deleted', 'TokenDeleted'),
          ...errors('400', '401', '404', '429', '500', '503'),
        },
      },
    },
  };
}

const card = object(
  'The saved card, masked',
  {
    brand: { type: 'string', description: 'Card brand' },
    expiry: object(
      'Card expiry',
      {
        month: text(1, 2, 'Expiry month'),
        year: text(2, 2, 'Expiry year, 2000 plus this value'),
      },
      ['month', 'year'],
    ),
    fundingMethod: oneOfValues(['CHARGE', 'CREDIT', 'DEBIT', 'UNKNOWN'], 'How the card is funded'),
    holder: object('Cardholder as printed on the card', {
      firstName: { type: 'string', description: 'First name' },
      lastName: { type: 'string', description: 'Last name' },
    }),
    number: {
      type: 'string',
      description: "Card number masked per the merchant's settings",
      pattern: '^[0-9x]{9,19}$',
    },
    scheme: { type: 'string', description: 'Card scheme' },
  },
  ['brand', 'expiry', 'fundingMethod', 'number', 'scheme'],
);

export function tokenResponseSchemas(): Record<string, JsonSchema> {
  return {
    TokenResponse: object(
      'A card token',
      {
        correlationId: text(1, 100, 'The correlationId of the request, echoed'),
        repositoryId: text(1, 40, "The merchant's id: each merchant's tokens are its own"),
        response: object(
          'How the card was verified',
          {
            gatewayCode: oneOfValues(
              [
                'BASIC_VERIFICATION_SUCCESSFUL',
                'EXTERNAL_VERIFICATION_SUCCESSFUL',
                'NO_VERIFICATION_PERFORMED',
              ],
              'The verification performed',
            ),
          },
          ['gatewayCode'],
        ),
        result: oneOfValues(['SUCCESS'], 'Always SUCCESS'),
        sourceOfFunds: object(
          'The saved card',
          {
            provided: object('Payment details', { card }, ['card']),
            type: oneOfValues(['CARD'], 'Always CARD'),
          },
          ['provided', 'type'],
        ),
        status: oneOfValues(['VALID', 'INVALID'], 'INVALID once the expiry has passed'),
        token: text(1, 40, 'The token, to send as sourceOfFunds.token'),
        usage: object(
          'When the token was last updated and used',
          {
            lastUpdated: dateTime('When the token was last saved'),
            lastUsedTime: dateTime('When a payment last used the token'),
          },
          ['lastUpdated'],
        ),
        verificationStrategy: oneOfValues(
          [...VERIFICATION_STRATEGIES],
          'The verification asked for when the token was last saved',
        ),
      },
      [
        'repositoryId',
        'response',
        'result',
        'sourceOfFunds',
        'status',
        'token',
        'usage',
        'verificationStrategy',
      ],
    ),
    TokenDeleted: object(
      'The token was deleted',
      { result: oneOfValues(['SUCCESS'], 'Always SUCCESS') },
      ['result'],
    ),
  };
}
