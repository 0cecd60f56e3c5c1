import { tokenStreamId, type TokenEvent } from '@gateway/domain';
import { InMemoryEventStore, newEventId } from '@gateway/event-store';
import { CardTokens, type TokenRead } from '../../src/card-vault/card-tokens';
import { KeyedMutex } from '../../src/order/keyed-mutex';

/**
 * A payment's TokenUsed (CardTokens.used): appended at the revision the payment read the token at,
 * re-read only when another write came in between; nothing for a token deleted meanwhile.
 */
const STREAM = tokenStreamId('TESTM', 'Tok1');
const time = '2026-11-26T12:00:00.000Z';
const created: TokenEvent = {
  type: 'TokenCreated',
  data: {
    card: {
      number: '512345xxxxxx0008',
      fingerprint: 'f',
      expiry: { month: '1', year: '39' },
      brand: 'MASTERCARD',
      scheme: 'MASTERCARD',
      fundingMethod: 'CREDIT',
    },
    verificationStrategy: 'NONE',
    gatewayCode: 'NO_VERIFICATION_PERFORMED',
    time,
  },
};

let store: InMemoryEventStore;
let tokens: CardTokens;
beforeEach(async () => {
  store = new InMemoryEventStore();
  // Only the store, the locks and the clock take part in recording a use.
  const unused = undefined as never;
  tokens = new CardTokens(
    store,
    unused,
    unused,
    unused,
    unused,
    new KeyedMutex(),
    () => new Date(time),
  );
  await append(created, 'no_stream');
});

async function append(event: TokenEvent, expected: number | 'no_stream') {
  await store.appendToStream(STREAM, [{ eventId: newEventId(), ...event, metadata: {} }], expected);
}
const types = async () => (await store.readStream(STREAM)).map((e) => e.type);
const readAtCreation: TokenRead = { token: 'Tok1', revision: 0 };

describe('CardTokens.used', () => {
  it('appends TokenUsed at the revision read', async () => {
    await tokens.used('TESTM', readAtCreation);
    expect(await types()).toEqual(['TokenCreated', 'TokenUsed']);
  });

  it('after another use in between, reads again and appends its own', async () => {
    await append({ type: 'TokenUsed', data: { time } }, 0);
    await tokens.used('TESTM', readAtCreation);
    expect(await types()).toEqual(['TokenCreated', 'TokenUsed', 'TokenUsed']);
  });

  it('records nothing for a token deleted since it was read', async () => {
    await append({ type: 'TokenDeleted', data: { time } }, 0);
    await tokens.used('TESTM', readAtCreation);
    expect(await types()).toEqual(['TokenCreated', 'TokenDeleted']);
  });

  it('two uses at once both count', async () => {
    await Promise.all([tokens.used('TESTM', readAtCreation), tokens.used('TESTM', readAtCreation)]);
    expect(await types()).toEqual(['TokenCreated', 'TokenUsed', 'TokenUsed']);
  });
});
