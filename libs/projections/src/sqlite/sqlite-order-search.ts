import type Database from 'better-sqlite3';
import {
  OrderSearches,
  searchStatement,
  type OrderSearch,
  type OrderSearchPage,
} from './order-search';
import { openReadOnlyFile } from './sqlite-order-summary.read-model';

/**
 * The order-summary read model opened read-only by another process (the console) beside the
 * gateway that projects into it.
 */
export class SqliteOrderSearch {
  private readonly searches: OrderSearches;

  private constructor(private readonly db: Database.Database) {
    this.searches = new OrderSearches(db);
  }

  /** Throws when the file is missing or of another version (the gateway has not migrated it yet). */
  static openReadOnly(filename: string): SqliteOrderSearch {
    return new SqliteOrderSearch(openReadOnlyFile(filename));
  }

  search(search: OrderSearch): OrderSearchPage {
    return this.searches.page(search);
  }

  /** SQLite's plan of a search, one line per step (tests hold every search to its index). */
  plan(search: OrderSearch): string[] {
    const { sql, params } = searchStatement(search);
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map(
      (step) => step.detail,
    );
  }

  close(): void {
    this.db.close();
  }
}
