import type { DataTableColumn } from './types';

/**
 * Below this width a table's rows become cards: one block per row, each cell under its column's
 * header, the important (`primary`) columns first and the row's actions at the card's foot, so
 * nothing scrolls sideways and nothing is pinned over the content.
 */
export const CARDS_QUERY = '(max-width: 640px)';

/** The columns in card order: the `primary` ones first, each group keeping the columns' own order. */
export function cardOrder<TData>(columns: readonly DataTableColumn<TData>[]): DataTableColumn<TData>[] {
  return [...columns.filter((c) => c.primary), ...columns.filter((c) => !c.primary)];
}
