import { html, type Html } from '@gateway/order-view';

/** A table cell's content: text (escaped) or markup. */
type Cell = string | number | Html;

/**
 * One of Finance's tables: the plain columns first, then the money columns (right-aligned by
 * `class="money"`, headed and filled alike), inside a region that scrolls on narrow screens and
 * that keyboard users can focus to scroll it.
 */
export interface MoneyTable {
  /** The region's accessible name. */
  readonly region: string;
  readonly className?: string;
  readonly caption: Cell;
  readonly columns: readonly string[];
  readonly money?: readonly string[];
  /** Each row's cells in column order, money figures already formatted. */
  readonly rows: readonly (readonly Cell[])[];
  /** The first cell of each row heads it (`<th scope="row">`), unless false. */
  readonly rowHeads?: boolean;
  /** A totals row, in the table's footer. */
  readonly total?: readonly Cell[];
}

export function moneyTable(table: MoneyTable): Html {
  const { columns, money = [], rowHeads = true } = table;
  const row = (cells: readonly Cell[]) =>
    html`<tr>
      ${cells.map((cell, i) =>
        i === 0 && rowHeads
          ? html`<th scope="row">${cell}</th>`
          : i < columns.length
            ? html`<td>${cell}</td>`
            : html`<td class="money">${cell}</td>`,
      )}
    </tr>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${table.region}">
    <table${table.className ? html` class="${table.className}"` : ''}>
      <caption>
        ${table.caption}
      </caption>
      <thead>
        <tr>
          ${columns.map((label) => html`<th scope="col">${label}</th>`)}
          ${money.map((label) => html`<th scope="col" class="money">${label}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${table.rows.map(row)}
      </tbody>
      ${
        table.total
          ? html`<tfoot>
              ${row(table.total)}
            </tfoot>`
          : ''
      }
    </table>
  </div>`;
}
