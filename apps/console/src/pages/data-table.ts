import { html, type Html } from '@gateway/order-view';
import { scrollingTable } from './order-table';

/** A table cell's content: text (escaped) or markup. */
type Cell = string | number | Html;

/** A column's heading; a money column's figures are right-aligned (`class="money"`), heading too. */
export type Column = string | { readonly money: string };

/** The column of a money figure (or of a count shown beside them). */
export const money = (label: string): Column => ({ money: label });

export interface DataTable {
  /** The scrolling region's accessible name. */
  readonly region: string;
  readonly caption: string;
  readonly className?: string;
  readonly columns: readonly Column[];
  /** Each row's cells in column order, figures already formatted. */
  readonly rows: readonly (readonly Cell[])[];
  /** The first cell of each row heads it (`<th scope="row">`), unless false. */
  readonly rowHeads?: boolean;
  /** A totals row, in the table's footer. */
  readonly total?: readonly Cell[];
}

/** A table of cells by column, in a scrolling region (scrollingTable). */
export function dataTable(table: DataTable): Html {
  const { columns, rowHeads = true } = table;
  const row = (cells: readonly Cell[]) =>
    html`<tr>
      ${cells.map((cell, i) =>
        i === 0 && rowHeads
          ? html`<th scope="row">${cell}</th>`
          : typeof columns[i] === 'string'
            ? html`<td>${cell}</td>`
            : html`<td class="money">${cell}</td>`,
      )}
    </tr>`;
  return scrollingTable(
    table.region,
    table.caption,
    html`${columns.map((column) =>
      typeof column === 'string'
        ? html`<th scope="col">${column}</th>`
        : html`<th scope="col" class="money">${column.money}</th>`,
    )}`,
    table.rows.map(row),
    { className: table.className, foot: table.total && row(table.total) },
  );
}
