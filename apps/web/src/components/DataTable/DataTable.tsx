import {
  type ColumnDef,
  getCoreRowModel,
  type OnChangeFn,
  type PaginationState,
  type Row,
  type RowSelectionState,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type ReactNode,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button/Button';
import { LoadingOverlay } from '../LoadingOverlay/LoadingOverlay';
import {
  ChevronLeftIcon,
  ChevronRightIcon,
  ChevronsLeftIcon,
  ChevronsRightIcon,
  CloseIcon,
  PencilIcon,
  SearchIcon,
  SortIcon,
  TrashIcon,
} from '../lib/icons';
import { formatNumber } from '../lib/format';
import { cx, foldText, queryTerms } from '../lib/text';
import { useControllableState } from '../lib/useControllableState';
import { useStableId } from '../lib/useId';
import { Checkbox } from './Checkbox';
import {
  buildSearchIndex,
  filterIndices,
  type Primitive,
  type SortKey,
  sortIndices,
  toSortKey,
} from './pipeline';
import '../lib/tokens.css';
import './DataTable.css';

export type { PaginationState, SortingState };

/** SPEC.md section 9: table page sizes. */
export const PAGE_SIZES = [5, 10, 20, 50, 100, 500] as const;
export const DEFAULT_PAGE_SIZE = 10;

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
  /** Clickable header that toggles ascending/descending. Default: true when the column has an accessor. */
  sortable?: boolean;
  /** Value used for sorting when it differs from the accessor (e.g. a date kept as text). */
  sortValue?: (row: TData) => Primitive;
  /** Column width (px number or any CSS length). Recommended for large pages, whose body is virtualised. */
  width?: number | string;
  align?: 'start' | 'center' | 'end';
  /** Hidden columns are neither shown nor searched. */
  hidden?: boolean;
  className?: string;
}

export interface DataTableProps<TData> {
  data: readonly TData[];
  columns: readonly DataTableColumn<TData>[];
  /** Stable identity of a row; selection is kept by these ids (as strings). */
  getRowId: (row: TData) => string | number;
  /** Accessible name of the table, e.g. 'Clientes'. */
  label: string;

  /** Shows the keyword filter box. Default true. */
  filterable?: boolean;
  /** Controlled filter text. */
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
  /** Called with the selected rows (in data order) whenever the selection changes. */
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

  sorting?: SortingState;
  defaultSorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;

  /** Controlled page index (0-based) and size. */
  pagination?: PaginationState;
  defaultPageSize?: number;
  onPaginationChange?: (pagination: PaginationState) => void;
  pageSizes?: readonly number[];

  /** Minimum table width; narrower screens scroll horizontally (clients: 1200). */
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

function readValue<TData>(column: DataTableColumn<TData>, row: TData): Primitive {
  const { accessor } = column;
  if (accessor === undefined) return undefined;
  if (typeof accessor === 'function') return accessor(row);
  return row[accessor] as Primitive;
}

function searchText<TData>(column: DataTableColumn<TData>, row: TData): string {
  const raw = column.searchValue ? column.searchValue(row) : readValue(column, row);
  const values = Array.isArray(raw) ? raw : [raw];
  return values
    .map((value) => (value instanceof Date ? value.toLocaleDateString() : foldText(value)))
    .join(' ');
}

function isSearchable<TData>(column: DataTableColumn<TData>): boolean {
  if (column.hidden) return false;
  return column.searchable ?? (column.accessor !== undefined || column.searchValue !== undefined);
}

function toCssLength(value: number | string | undefined): string | undefined {
  return typeof value === 'number' ? `${value}px` : value;
}

function renderValue(value: Primitive): ReactNode {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toLocaleString();
  if (typeof value === 'boolean') return value ? '✓' : '';
  return String(value);
}

function sameRows<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The product's list widget (SPEC.md section 2): keyword filter, row selection with edit/delete rules,
 * sorting, 'Pag x | y' pagination. Every piece of state can be controlled or left to the table.
 */
export function DataTable<TData>(props: DataTableProps<TData>) {
  const {
    data,
    columns,
    label,
    filterable = true,
    filterPlaceholder,
    onEdit,
    onDelete,
    editLabel,
    deleteLabel,
    toolbar,
    rowActions,
    rowActionsWidth,
    pageSizes = PAGE_SIZES,
    minWidth,
    emptyMessage,
    loading = false,
    virtualizeAbove = 100,
    virtualHeight = 'min(70vh, 640px)',
    estimatedRowHeight = 48,
    rowClassName,
    className,
  } = props;
  const { t, i18n } = useTranslation();
  const tableId = useStableId(props.id, 'hb-table');
  const getRowIdRef = useRef(props.getRowId);
  getRowIdRef.current = props.getRowId;
  const rowKey = useCallback((row: TData) => String(getRowIdRef.current(row)), []);

  const selectable =
    props.selectable ??
    Boolean(onEdit || onDelete || props.onSelectionChange || props.selectedIds || props.onSelectedIdsChange);

  // ---- keyword filter: one folded string per row, built once per data/columns change ----
  const [filter, setFilter] = useControllableState(
    props.filter,
    props.defaultFilter ?? '',
    props.onFilterChange,
  );
  const deferredFilter = useDeferredValue(filter);
  const visibleColumns = useMemo(() => columns.filter((column) => !column.hidden), [columns]);
  // Derived data is keyed on the columns' shape, not their identity, so inline column arrays stay cheap.
  const columnsRef = useRef(columns);
  columnsRef.current = columns;
  const columnsKey = columns
    .map((column) => `${column.id}:${column.hidden ? 0 : 1}:${isSearchable(column) ? 1 : 0}`)
    .join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: columnsKey stands for the columns
  const searchIndex = useMemo(
    () =>
      buildSearchIndex(
        data,
        columnsRef.current.filter(isSearchable).map((column) => (row: TData) => searchText(column, row)),
      ),
    [data, columnsKey],
  );
  const terms = useMemo(() => queryTerms(deferredFilter), [deferredFilter]);
  const filtered = useMemo(
    () => (terms.length === 0 ? null : filterIndices(searchIndex, terms)),
    [searchIndex, terms],
  );

  // ---- sorting ----
  const [sorting, setSorting] = useControllableState<SortingState>(
    props.sorting,
    props.defaultSorting ?? [],
    props.onSortingChange,
  );

  // ---- pagination ----
  const [pagination, setPagination] = useControllableState<PaginationState>(
    props.pagination,
    () => ({ pageIndex: 0, pageSize: props.defaultPageSize ?? DEFAULT_PAGE_SIZE }),
    props.onPaginationChange,
  );

  // ---- selection (ids) ----
  const [selectedIds, setSelectedIds] = useControllableState<readonly string[]>(
    props.selectedIds,
    props.defaultSelectedIds ?? [],
    props.onSelectedIdsChange as ((ids: readonly string[]) => void) | undefined,
  );
  const rowSelection = useMemo<RowSelectionState>(() => {
    const state: RowSelectionState = {};
    for (const id of selectedIds) state[id] = true;
    return state;
  }, [selectedIds]);
  const onRowSelectionChange = useCallback<OnChangeFn<RowSelectionState>>(
    (updater) => {
      setSelectedIds((previous) => {
        const prevState: RowSelectionState = {};
        for (const id of previous) prevState[id] = true;
        const next = typeof updater === 'function' ? updater(prevState) : updater;
        return Object.keys(next).filter((id) => next[id]);
      });
    },
    [setSelectedIds],
  );
  const clearSelection = useCallback(() => setSelectedIds([]), [setSelectedIds]);

  const selectedRows = useMemo(() => {
    if (selectedIds.length === 0) return [] as TData[];
    const ids = new Set(selectedIds);
    return data.filter((row) => ids.has(rowKey(row)));
  }, [data, selectedIds, rowKey]);

  // Rows that left the data (deleted, reloaded without them) leave the selection too.
  useEffect(() => {
    if (selectedRows.length !== selectedIds.length) {
      setSelectedIds(selectedRows.map(rowKey));
    }
  }, [selectedRows, selectedIds, rowKey, setSelectedIds]);

  const onSelectionChangeRef = useRef(props.onSelectionChange);
  onSelectionChangeRef.current = props.onSelectionChange;
  const lastReported = useRef<readonly TData[]>(selectedRows);
  useEffect(() => {
    if (!sameRows(lastReported.current, selectedRows)) {
      lastReported.current = selectedRows;
      onSelectionChangeRef.current?.(selectedRows);
    }
  }, [selectedRows]);

  // ---- sort and page on index arrays; TanStack only ever sees the rows of the current page ----
  const sortSpec = sorting[0];
  const sortColumnId = sortSpec?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: columnsKey stands for the columns
  const sortKeys = useMemo<SortKey[] | null>(() => {
    const column = columnsRef.current.find((c) => c.id === sortColumnId);
    if (!column) return null;
    const keys = new Array<SortKey>(data.length);
    for (let i = 0; i < data.length; i++) {
      keys[i] = toSortKey(column.sortValue ? column.sortValue(data[i]) : readValue(column, data[i]));
    }
    return keys;
  }, [data, sortColumnId, columnsKey]);
  const sortDesc = sortSpec?.desc ?? false;
  const ordered = useMemo(() => {
    if (!sortKeys) return filtered;
    const indices = filtered ? filtered.slice() : Array.from({ length: data.length }, (_, i) => i);
    return sortIndices(indices, sortKeys, sortDesc);
  }, [filtered, sortKeys, sortDesc, data.length]);
  const rowCount = ordered ? ordered.length : data.length;
  const pageStart = pagination.pageIndex * pagination.pageSize;
  const pageEnd = Math.min(pageStart + pagination.pageSize, rowCount);
  const pageData = useMemo(() => {
    const out: TData[] = [];
    for (let i = pageStart; i < pageEnd; i++) out.push(data[ordered ? ordered[i] : i]);
    return out;
  }, [data, ordered, pageStart, pageEnd]);

  const columnDefs = useMemo<ColumnDef<TData>[]>(
    () =>
      visibleColumns.map((column) => ({
        id: column.id,
        accessorFn: (row: TData) => (column.sortValue ? column.sortValue(row) : readValue(column, row)),
        enableSorting: column.sortable ?? (column.accessor !== undefined || column.sortValue !== undefined),
        sortDescFirst: false,
      })),
    [visibleColumns],
  );

  const table = useReactTable<TData>({
    data: pageData,
    columns: columnDefs,
    state: { sorting, pagination, rowSelection },
    getRowId: rowKey,
    rowCount,
    manualFiltering: true,
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: selectable,
    enableMultiSort: false,
    enableSortingRemoval: false,
    autoResetPageIndex: false,
    onSortingChange: (updater) => {
      setSorting(updater);
      setPagination((p) => (p.pageIndex === 0 ? p : { ...p, pageIndex: 0 }));
    },
    onPaginationChange: setPagination,
    onRowSelectionChange,
    getCoreRowModel: getCoreRowModel(),
  });

  const onFilterInput = (value: string) => {
    setFilter(value);
    setPagination((p) => (p.pageIndex === 0 ? p : { ...p, pageIndex: 0 }));
  };

  const pageCount = Math.max(1, Math.ceil(rowCount / pagination.pageSize));
  // Keep the page in range when rows disappear (delete, filter, smaller data).
  useEffect(() => {
    if (pagination.pageIndex > pageCount - 1) {
      setPagination((p) => ({ ...p, pageIndex: pageCount - 1 }));
    }
  }, [pagination.pageIndex, pageCount, setPagination]);

  const rows = table.getRowModel().rows;
  // Anchor for shift+click range selection: the page row last toggled (reset when the page changes).
  const lastToggled = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the anchor belongs to one page of one result set
  useEffect(() => {
    lastToggled.current = null;
  }, [pageData]);
  const virtualize = rows.length > virtualizeAbove;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimatedRowHeight,
    overscan: 12,
    enabled: virtualize,
  });
  // A new page starts at its top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll reset is keyed on the page, not read from it
  useEffect(() => {
    // Only a virtualised body scrolls. The virtualizer tracks the offset from scroll events, so checking
    // it (rather than reading scrollTop) avoids forcing a layout when the body is already at the top.
    if (virtualize && scrollRef.current && (virtualizer.scrollOffset ?? 0) > 0)
      scrollRef.current.scrollTop = 0;
  }, [pagination.pageIndex, pagination.pageSize, deferredFilter, sorting]);

  const hasActions = Boolean(rowActions);
  const colSpan = visibleColumns.length + (selectable ? 1 : 0) + (hasActions ? 1 : 0);
  const isFiltering = terms.length > 0;
  const exactlyOne = selectedRows.length === 1;
  const helpers: SelectionHelpers = { clearSelection };

  const virtualItems = virtualize ? virtualizer.getVirtualItems() : [];
  const paddingTop = virtualize && virtualItems.length > 0 ? virtualItems[0].start : 0;
  const paddingBottom =
    virtualize && virtualItems.length > 0
      ? virtualizer.getTotalSize() - virtualItems[virtualItems.length - 1].end
      : 0;
  const renderedRows: Array<{ row: Row<TData>; index: number }> = virtualize
    ? virtualItems.map((item) => ({ row: rows[item.index], index: item.index }))
    : rows.map((row, index) => ({ row, index }));
  const firstRowNumber = pagination.pageIndex * pagination.pageSize;

  const scrollStyle: CSSProperties | undefined = virtualize
    ? { height: toCssLength(virtualHeight), overflow: 'auto' }
    : undefined;

  const filterId = `${tableId}-filter`;
  const countKey = isFiltering ? 'results' : 'total';
  const statusText =
    rowCount === 0
      ? t(`widgets.dataTable.${countKey}`, { count: 0 })
      : t(`widgets.dataTable.${countKey}Range`, {
          from: formatNumber(firstRowNumber + 1, i18n.language),
          to: formatNumber(Math.min(firstRowNumber + pagination.pageSize, rowCount), i18n.language),
          total: formatNumber(rowCount, i18n.language),
          count: rowCount,
        });

  return (
    <div className={cx('hb-table', className)} id={tableId}>
      <div className="hb-table__toolbar">
        {filterable && (
          <div className="hb-table__search">
            <label htmlFor={filterId} className="hb-visually-hidden">
              {t('widgets.dataTable.filterLabel')}
            </label>
            <SearchIcon className="hb-table__search-icon" />
            <input
              id={filterId}
              type="search"
              className="hb-table__search-input"
              value={filter}
              placeholder={filterPlaceholder ?? t('widgets.dataTable.filterPlaceholder')}
              onChange={(event) => onFilterInput(event.target.value)}
              onKeyDown={(event) => {
                // Escape clears the search first (and does not close an enclosing modal meanwhile).
                if (event.key === 'Escape' && filter) {
                  event.preventDefault();
                  event.stopPropagation();
                  onFilterInput('');
                }
              }}
              aria-controls={`${tableId}-grid`}
              autoComplete="off"
              spellCheck={false}
            />
            {filter && (
              <button
                type="button"
                className="hb-icon-btn hb-table__search-clear"
                aria-label={t('widgets.dataTable.clearFilter')}
                onClick={() => onFilterInput('')}
              >
                <CloseIcon size={14} />
              </button>
            )}
          </div>
        )}
        {selectable && selectedIds.length > 0 && (
          <div className="hb-table__selection">
            <span>{t('widgets.dataTable.selected', { count: selectedIds.length })}</span>
            <button type="button" className="hb-table__link" onClick={clearSelection}>
              {t('widgets.dataTable.clearSelection')}
            </button>
          </div>
        )}
        <div className="hb-table__actions">
          {toolbar}
          {onEdit && (
            <Button
              variant="secondary"
              disabled={!exactlyOne}
              onClick={() => exactlyOne && onEdit(selectedRows[0], helpers)}
            >
              <PencilIcon size={15} />
              {editLabel ?? t('widgets.dataTable.edit')}
            </Button>
          )}
          {onDelete && (
            <Button
              variant="danger"
              disabled={selectedRows.length === 0}
              onClick={() => selectedRows.length > 0 && onDelete(selectedRows, helpers)}
            >
              <TrashIcon size={15} />
              {deleteLabel ?? t('widgets.dataTable.delete')}
            </Button>
          )}
        </div>
      </div>

      <div
        className={cx('hb-table__scroll', virtualize && 'hb-table__scroll--virtual')}
        ref={scrollRef}
        style={scrollStyle}
      >
        <table
          id={`${tableId}-grid`}
          className={cx('hb-table__grid', virtualize && 'hb-table__grid--fixed')}
          style={{ minWidth: toCssLength(minWidth) }}
          aria-label={label}
          aria-rowcount={rows.length + 1}
          aria-busy={loading || undefined}
        >
          <colgroup>
            {selectable && <col style={{ width: 48 }} />}
            {visibleColumns.map((column) => (
              <col key={column.id} style={{ width: toCssLength(column.width) }} />
            ))}
            {hasActions && <col style={{ width: toCssLength(rowActionsWidth) }} />}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {selectable && (
                <th scope="col" className="hb-table__check-cell">
                  <Checkbox
                    checked={table.getIsAllPageRowsSelected()}
                    indeterminate={table.getIsSomePageRowsSelected()}
                    disabled={rows.length === 0}
                    onChange={(checked) => table.toggleAllPageRowsSelected(checked)}
                    aria-label={t('widgets.dataTable.selectAll')}
                  />
                </th>
              )}
              {visibleColumns.map((column) => {
                const tanColumn = table.getColumn(column.id);
                const canSort = tanColumn?.getCanSort() ?? false;
                const sorted = tanColumn?.getIsSorted() ?? false;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    className={cx(column.align && `hb-align-${column.align}`, column.className)}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {canSort ? (
                      <button
                        type="button"
                        className={cx('hb-table__sort', sorted && 'hb-table__sort--active')}
                        onClick={() => tanColumn?.toggleSorting(sorted === 'asc')}
                        title={t('widgets.dataTable.sortBy', { column: column.header })}
                      >
                        <span>{column.header}</span>
                        <SortIcon sortState={sorted} size={14} />
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
              {hasActions && (
                <th scope="col" className="hb-align-end">
                  {t('widgets.dataTable.actions')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={colSpan} className="hb-table__empty">
                  {loading
                    ? null
                    : isFiltering
                      ? t('widgets.dataTable.noMatches', { query: deferredFilter.trim() })
                      : (emptyMessage ?? t('widgets.dataTable.empty'))}
                </td>
              </tr>
            ) : (
              <>
                {paddingTop > 0 && (
                  <tr className="hb-table__spacer">
                    <td colSpan={colSpan} style={{ height: paddingTop }} />
                  </tr>
                )}
                {renderedRows.map(({ row, index }) => {
                  const original = row.original;
                  const selected = row.getIsSelected();
                  return (
                    <tr
                      key={row.id}
                      data-index={index}
                      ref={virtualize ? virtualizer.measureElement : undefined}
                      aria-rowindex={index + 2}
                      aria-selected={selectable ? selected : undefined}
                      className={cx(selected && 'hb-table__row--selected', rowClassName?.(original))}
                    >
                      {selectable && (
                        <td className="hb-table__check-cell">
                          <Checkbox
                            checked={selected}
                            onChange={(checked, shiftKey) => {
                              const anchor = lastToggled.current;
                              if (shiftKey && anchor !== null && anchor !== index && rows[anchor]) {
                                // Shift+click selects (or clears) the whole run from the last row clicked.
                                const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
                                const ids = rows.slice(from, to + 1).map((r) => r.id);
                                setSelectedIds((previous) => {
                                  const next = new Set(previous);
                                  for (const id of ids) {
                                    if (checked) next.add(id);
                                    else next.delete(id);
                                  }
                                  return [...next];
                                });
                              } else {
                                row.toggleSelected(checked);
                              }
                              lastToggled.current = index;
                            }}
                            aria-label={t('widgets.dataTable.selectRow', { id: row.id })}
                          />
                        </td>
                      )}
                      {visibleColumns.map((column) => {
                        const value = readValue(column, original);
                        return (
                          <td
                            key={column.id}
                            className={cx(column.align && `hb-align-${column.align}`, column.className)}
                          >
                            {column.cell ? column.cell(original, value) : renderValue(value)}
                          </td>
                        );
                      })}
                      {hasActions && (
                        <td className="hb-align-end">
                          <div className="hb-table__row-actions">{rowActions?.(original)}</div>
                        </td>
                      )}
                    </tr>
                  );
                })}
                {paddingBottom > 0 && (
                  <tr className="hb-table__spacer">
                    <td colSpan={colSpan} style={{ height: paddingBottom }} />
                  </tr>
                )}
              </>
            )}
          </tbody>
        </table>
        <LoadingOverlay visible={loading} hideLabel />
      </div>

      <nav className="hb-table__footer" aria-label={t('widgets.dataTable.pagination')}>
        <div className="hb-table__page-size">
          <label htmlFor={`${tableId}-size`}>{t('widgets.dataTable.pageSize')}</label>
          <select
            id={`${tableId}-size`}
            value={pagination.pageSize}
            onChange={(event) => setPagination({ pageIndex: 0, pageSize: Number(event.target.value) })}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
          <span className="hb-table__count" aria-live="polite">
            {statusText}
          </span>
        </div>
        <div className="hb-table__pager">
          <button
            type="button"
            className="hb-icon-btn"
            onClick={() => table.firstPage()}
            disabled={!table.getCanPreviousPage()}
            aria-label={t('widgets.dataTable.firstPage')}
          >
            <ChevronsLeftIcon />
          </button>
          <button
            type="button"
            className="hb-icon-btn"
            onClick={() => table.previousPage()}
            disabled={!table.getCanPreviousPage()}
            aria-label={t('widgets.dataTable.previousPage')}
          >
            <ChevronLeftIcon />
          </button>
          <span className="hb-table__page" data-testid="table-page">
            {t('widgets.dataTable.page', {
              page: Math.min(pagination.pageIndex + 1, pageCount),
              pageCount,
            })}
          </span>
          <button
            type="button"
            className="hb-icon-btn"
            onClick={() => table.nextPage()}
            disabled={!table.getCanNextPage()}
            aria-label={t('widgets.dataTable.nextPage')}
          >
            <ChevronRightIcon />
          </button>
          <button
            type="button"
            className="hb-icon-btn"
            onClick={() => table.lastPage()}
            disabled={!table.getCanNextPage()}
            aria-label={t('widgets.dataTable.lastPage')}
          >
            <ChevronsRightIcon />
          </button>
        </div>
      </nav>
    </div>
  );
}
