import { InMemoryEventStore } from '../src';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract(
  'in-memory',
  async () => {
    const store = new InMemoryEventStore();
    return {
      store,
      loseEvent: async (streamId, revision) => store.loseFromIndexForTests(streamId, revision),
    };
  },
  { feedsSubscriptions: true },
);
