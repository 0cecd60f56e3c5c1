import { maskCardNumber, tokenStatus, type CardMask, type TokenState } from '@gateway/domain';

/**
 * A token as the merchant sees it (behaviour notes, Stored cards): the card masked for this
 * caller, brand, scheme and funding method, and when it was last updated and used. `repositoryId`
 * is the merchant's id: each merchant's tokens are a repository of their own.
 */
export function renderToken(
  merchantId: string,
  token: string,
  state: TokenState,
  view: { readonly cardMask: CardMask; readonly now: Date; readonly correlationId?: unknown },
): Record<string, unknown> {
  const { card } = state;
  return {
    ...(view.correlationId !== undefined ? { correlationId: view.correlationId } : {}),
    repositoryId: merchantId,
    response: { gatewayCode: state.gatewayCode },
    result: 'SUCCESS',
    sourceOfFunds: {
      provided: {
        card: {
          brand: card.brand,
          expiry: card.expiry,
          fundingMethod: card.fundingMethod,
          ...(card.holder ? { holder: card.holder } : {}),
          number: maskCardNumber(card.number, view.cardMask),
          scheme: card.scheme,
        },
      },
      type: 'CARD',
    },
    status: tokenStatus(card, view.now),
    token,
    usage: {
      lastUpdated: state.lastUpdated,
      ...(state.lastUsedTime ? { lastUsedTime: state.lastUsedTime } : {}),
    },
    verificationStrategy: state.verificationStrategy,
  };
}
