import type { PaginationState, SortingState } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { Primitive } from './pipeline';

export type { PaginationState, Primitive, SortingState };

/** The product's table page sizes; every list offers the same choice. */
export const PAGE_SIZES = [5, 10, 20, 50, 100, 500] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** How long the filter box waits after the last keystroke before a server-side table reports it. */
export const DEFAULT_FILTER_DEBOUNCE_MS = 300;

export interface DataTableColumn<TData> {
  /** Unique and stable; used by sorting state and as the React key. */
  id: string;
  /** Header text (also names the sort button for assistive technology). */
  header: string;
  /** The cell's value: a property name or a function. Drives sorting and, by default, filtering. */
  accessor?: (keyof TData & string) | ((row: TData) => Primitive);
  /** Custom content (chips, buttons...). Defaults to the accessor's value as text. */
  cell?: (row: TData, value: Primitive) => ReactNode;
  /** Text the keyword filter looks at; defaults to the accessor's value. Needed for columns whose cell is not plain text. */
  searchValue?: (row: TData) => Primitive | Primitive[];
  /** Part of the keyword filter. Default: true when the column has an accessor or a searchValue. */
  searchable?: boolean;
  /**
   * Clickable header that toggles ascending/descending. Default: true when the column has an accessor.
   * In server mode, mark columns the server cannot sort by `sortable: false`.
   */
  sortable?: boolean;
  /** Value used for sorting when it differs from the accessor (e.g. a date kept as text). */
  sortValue?: (row: TData) => Primitive;
  /** Column width (px number or any CSS length). Recommended for large pages, whose body is virtualised. */
  width?: number | string;
  align?: 'start' | 'center' | 'end';
  /** Hidden columns are neither shown nor searched. */
  hidden?: boolean;
  /** Keeps the column pinned to the table's right edge while the table scrolls sideways. */
  sticky?: boolean;
  /**
   * One of the columns the row is about (a name, a send's status): on phones, where rows become
   * cards, the primary columns lead each card, in their own order, before the others.
   */
  primary?: boolean;
  className?: string;
}

/**
 * - `client` (default): `data` holds every row; the table filters, sorts and pages it itself.
 * - `server`: `data` is the current page only. The table reports the filter (debounced), the sorting and
 *   the page through the callbacks and the caller fetches that page; `rowCount` says how many rows match.
 */
export type DataTableMode = 'client' | 'server';

export interface DataTableProps<TData> {
  /** Every row (client mode) or the rows of the current page (server mode). */
  data: readonly TData[];
  columns: readonly DataTableColumn<TData>[];
  /** Stable identity of a row; selection is kept by these ids (as strings). */
  getRowId: (row: TData) => string | number;
  /** Accessible name of the table, e.g. 'Clientes'. */
  label: string;

  /** Who filters, sorts and pages the rows. Default 'client'. */
  mode?: DataTableMode;
  /** Server mode: how many rows match the current filter (all pages together). */
  rowCount?: number;
  /** Server mode: number of pages; defaults to ceil(rowCount / pageSize). */
  pageCount?: number;
  /** Server mode: ms the filter waits after the last keystroke before `onFilterChange`. Default 300. */
  filterDebounceMs?: number;

  /** Shows the keyword filter box. Default true. */
  filterable?: boolean;
  /** Controlled filter text (in server mode: the text last reported, after the debounce). */
  filter?: string;
  defaultFilter?: string;
  onFilterChange?: (filter: string) => void;
  filterPlaceholder?: string;

  /** Shows row checkboxes. Default: true when onEdit, onDelete, onSelectionChange or selectedIds is given. */
  selectable?: boolean;
  /** Controlled selection (row ids as strings). */
  selectedIds?: readonly string[];
  defaultSelectedIds?: readonly string[];
  onSelectedIdsChange?: (ids: string[]) => void;
  /** Called with the selected rows whenever the selection changes. */
  onSelectionChange?: (rows: TData[]) => void;

  /** Shows the edit button, enabled only when exactly one row is selected. */
  onEdit?: (row: TData, helpers: SelectionHelpers) => void;
  /** Shows the delete button, enabled when one or more rows are selected. */
  onDelete?: (rows: TData[], helpers: SelectionHelpers) => void;
  editLabel?: string;
  deleteLabel?: string;
  /** Extra actions shown in the toolbar (e.g. 'Crear cliente'). */
  toolbar?: ReactNode;
  /** Per-row actions, rendered in a trailing 'Acciones' column. */
  rowActions?: (row: TData) => ReactNode;
  /** Width of the actions column (useful on virtualised pages, whose layout is fixed). */
  rowActionsWidth?: number | string;
  /** Pins the actions column to the right edge while the table scrolls sideways. Default true. */
  stickyActions?: boolean;

  sorting?: SortingState;
  defaultSorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;

  /** Controlled page index (0-based) and size. */
  pagination?: PaginationState;
  defaultPageSize?: number;
  onPaginationChange?: (pagination: PaginationState) => void;
  pageSizes?: readonly number[];

  /**
   * On screens up to 640px wide each row becomes a card: every cell under its header, the `primary`
   * columns first, the row actions at the foot (never pinned over the content). Default true.
   */
  cards?: boolean;
  /** Minimum table width; narrower screens scroll horizontally (clients: 1200). Not applied to cards. */
  minWidth?: number | string;
  /** Shown when there is no data at all. */
  emptyMessage?: ReactNode;
  /** Covers the table with the loading overlay. */
  loading?: boolean;
  /** Pages with more rows than this render only the visible rows. Default 100. */
  virtualizeAbove?: number;
  /** Height of the scrolling body when virtualised. Default 'min(70vh, 640px)'. */
  virtualHeight?: number | string;
  /** Estimated row height in px for virtualisation. Default 48. */
  estimatedRowHeight?: number;
  rowClassName?: (row: TData) => string | undefined;
  className?: string;
  id?: string;
}

export interface SelectionHelpers {
  clearSelection: () => void;
}
