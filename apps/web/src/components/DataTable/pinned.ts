import { toCssLength } from './columns';
import type { DataTableColumn } from './types';

/** The key of the row actions' column among the pinned ones. */
export const ACTIONS = '\u0000actions';

/**
 * A column's width, which a screen's stylesheet may override per breakpoint through the custom property
 * `--hb-col-<column id>-width` (e.g. a narrower chat column on phones).
 */
export function colWidth(id: string, width: number | string | undefined): string | undefined {
  const length = toCssLength(width);
  return length === undefined ? undefined : `var(--hb-col-${id}-width, ${length})`;
}

/**
 * The trailing run of pinned columns (the caller's `sticky` columns just before the actions column,
 * and the actions column itself) with each one's distance from the table's right edge: the sum of the
 * widths of the pinned columns to its right, as CSS (so a width overridden per breakpoint moves it too).
 */
export function stickyOffsets<TData>(
  columns: readonly DataTableColumn<TData>[],
  actions: { present: boolean; sticky: boolean; width?: number | string },
): Map<string, string> {
  const offsets = new Map<string, string>();
  const right: string[] = [];
  const at = () =>
    right.length === 0 ? '0px' : right.length === 1 ? right[0] : `calc(${right.join(' + ')})`;
  if (actions.present) {
    if (!actions.sticky) return offsets;
    offsets.set(ACTIONS, at());
    right.push(colWidth('actions', actions.width) ?? '0px');
  }
  for (let i = columns.length - 1; i >= 0 && columns[i].sticky; i--) {
    offsets.set(columns[i].id, at());
    right.push(colWidth(columns[i].id, columns[i].width) ?? '0px');
  }
  return offsets;
}
