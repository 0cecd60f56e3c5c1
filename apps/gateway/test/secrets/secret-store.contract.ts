import type { SecretStore } from '../../src/secrets/secret-store';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const LATER = '2026-11-26T12:30:00.000Z';
const EARLIER = '2026-11-26T11:59:59.999Z';

export interface OpenedSecretStore {
  readonly secrets: SecretStore;
  /** Another node's view of the same store, when the adapter is shared (else the same one). */
  readonly other?: SecretStore;
  readonly cleanup?: () => Promise<void>;
}

/** What every SecretStore adapter must do (secret-store.ts). */
export function describeSecretStoreContract(
  name: string,
  open: () => Promise<OpenedSecretStore>,
): void {
  describe(`SecretStore contract: ${name}`, () => {
    let secrets: SecretStore;
    let other: SecretStore;
    let cleanup: (() => Promise<void>) | undefined;
    beforeEach(async () => {
      const opened = await open();
      ({ secrets, cleanup } = opened);
      other = opened.other ?? secrets;
    });
    afterEach(async () => {
      await secrets.close();
      if (other !== secrets) await other.close();
      await cleanup?.();
    });

    it('gives a secret back, by its id only, until it is destroyed', async () => {
      await secrets.put('session:S1:k1', 'one');
      await secrets.put('session:S1:k2', 'two', LATER);
      expect(await other.get('session:S1:k1')).toBe('one');
      expect(await other.get('session:S1:k2')).toBe('two');
      expect(await other.get('session:S2:k1')).toBeUndefined();
      await other.destroy('session:S1:k1');
      expect(await secrets.get('session:S1:k1')).toBeUndefined();
      expect(await secrets.get('session:S1:k2')).toBe('two');
    });

    it('replaces a secret put again under its id', async () => {
      await secrets.put('card:M:T:0', 'first');
      await other.put('card:M:T:0', 'second');
      await secrets.put('card:M:T:0', 'third');
      expect(await other.get('card:M:T:0')).toBe('third');
      await secrets.destroy('card:M:T:0');
      expect(await other.get('card:M:T:0')).toBeUndefined();
    });

    it('destroys a missing or destroyed secret without complaint', async () => {
      await secrets.destroy('never-kept');
      await secrets.put('gone', 'x');
      await secrets.destroy('gone');
      await other.destroy('gone');
      expect(await secrets.get('gone')).toBeUndefined();
    });

    it('purges the expired secrets only, whichever node kept them', async () => {
      await other.put('expired', 'x', EARLIER);
      await secrets.put('live', 'y', LATER);
      await secrets.put('kept', 'z');
      await secrets.purgeExpired(NOW);
      expect(await other.get('expired')).toBeUndefined();
      expect(await other.get('live')).toBe('y');
      expect(await other.get('kept')).toBe('z');
    });
  });
}
