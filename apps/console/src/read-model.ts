import { SqliteOrderSearch, type OrderSearch, type OrderSearchPage } from '@gateway/projections';
import { join } from 'node:path';

/**
 * The gateway's order read model (read-model.db in its data directory), opened read-only when
 * first needed: the console may start before the gateway has made or migrated it. A failed read
 * closes it, so the next request opens the file again (the gateway may have rebuilt it).
 */
export class ReadModel {
  private readonly file: string;
  private opened: SqliteOrderSearch | undefined;

  constructor(
    dataDir: string,
    private readonly warn: (message: string) => void = console.error,
  ) {
    this.file = join(dataDir, 'read-model.db');
  }

  /** A page of the search; undefined while the file cannot be read. */
  search(search: OrderSearch): OrderSearchPage | undefined {
    try {
      this.opened ??= SqliteOrderSearch.openReadOnly(this.file);
      return this.opened.search(search);
    } catch (error) {
      this.warn(`order read model not readable: ${(error as Error).message}`);
      this.close();
      return undefined;
    }
  }

  close(): void {
    this.opened?.close();
    this.opened = undefined;
  }
}
