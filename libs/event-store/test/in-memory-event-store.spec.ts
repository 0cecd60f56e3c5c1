import { InMemoryEventStore } from '../src';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract('in-memory', async () => ({ store: new InMemoryEventStore() }));
