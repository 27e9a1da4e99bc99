import type { ComponentChildren, HTMLAttributes } from 'preact';
import { Pager, type Pages } from './pager.js';

/** One column of a list: its heading and what each row shows in it. */
export interface Column<T> {
  /** The heading; on a responsive table also each cell's `data-label`, shown beside it on a narrow screen. */
  label: string;
  /** A heading for screen readers only, and no cell label (a column of row actions). */
  hidden?: boolean;
  cell: (item: T) => ComponentChildren;
}

export interface ListTableProps<T> {
  /** The rows; undefined until the list has loaded, when neither the table nor `empty` shows. */
  items: readonly T[] | undefined;
  columns: readonly Column<T>[];
  rowKey: (item: T) => string | number;
  /** More attributes of a row: a data attribute tests and links find it by, `aria-current`. */
  rowAttributes?: (item: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** What a loaded list with no rows shows instead of the table. */
  empty?: ComponentChildren;
  /** Rows become labelled cards on a narrow screen (styles.css `table.responsive`). */
  responsive?: boolean;
  /** A class of the table's own beside `responsive`. */
  class?: string;
  /** A list paged by cursor: ← Newer and Older → under it, `next` its next cursor. */
  pager?: { pages: Pages; next: string | null | undefined };
}

/**
 * The table of a list page (API keys, endpoints, deliveries, the audit log, …): its empty state
 * once loaded, the table with one heading per column, and the pager, always in the same markup.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  const { items, columns, responsive = false } = props;
  const tableClass = [responsive ? 'responsive' : '', props.class ?? ''].filter(Boolean).join(' ') || undefined;
  return (
    <>
      {items?.length === 0 ? props.empty : null}
      {items && items.length > 0 ? (
        <table class={tableClass}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column.label}>
                  {column.hidden ? <span class="visually-hidden">{column.label}</span> : column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={props.rowKey(item)} {...props.rowAttributes?.(item)}>
                {columns.map((column) => (
                  <td key={column.label} data-label={responsive && !column.hidden ? column.label : undefined}>
                    {column.cell(item)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {props.pager ? <Pager pages={props.pager.pages} next={props.pager.next} /> : null}
    </>
  );
}

/** The empty state of a filtered list: what its filters matched nothing says, else what fills the list. */
export function EmptyList(props: { filtered: boolean; noMatch: string; none: string }) {
  return <p class="empty">{props.filtered ? props.noMatch : props.none}</p>;
}
