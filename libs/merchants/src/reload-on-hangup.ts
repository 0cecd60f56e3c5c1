import type { MerchantRegistry } from './merchant-registry';

/**
 * The merchant administration CLI edits the merchants file; SIGHUP makes a running process (the
 * gateway, the standalone webhook dispatcher) read it again. A file with problems is refused
 * whole, and the merchants loaded before stay in force.
 */
export function reloadMerchantsOnHangup(registry: MerchantRegistry, file: string): void {
  process.on('SIGHUP', () => {
    try {
      registry.reload(file);
      console.log(`merchants reloaded from ${file}`);
    } catch (error) {
      console.error(
        `merchants not reloaded, keeping the previous ones: ${(error as Error).message}`,
      );
    }
  });
}
