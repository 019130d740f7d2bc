import {
  type ColumnDef,
  getCoreRowModel,
  type OnChangeFn,
  type PaginationState,
  type RowSelectionState,
  type SortingState,
  type Table,
  useReactTable,
} from '@tanstack/react-table';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { queryTerms } from '../lib/text';
import { useControllableState } from '../lib/useControllableState';
import { isSearchable, isSortable, readValue, searchText } from './columns';
import { buildSearchIndex, filterIndices, type SortKey, sortIndices, toSortKey } from './pipeline';
import {
  DEFAULT_FILTER_DEBOUNCE_MS,
  DEFAULT_PAGE_SIZE,
  type DataTableColumn,
  type DataTableProps,
  type SelectionHelpers,
} from './types';

function sameRows<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface DataTableModel<TData> {
  table: Table<TData>;
  server: boolean;
  visibleColumns: DataTableColumn<TData>[];
  selectable: boolean;
  /** What the filter box shows (in server mode it runs ahead of the reported filter). */
  filterText: string;
  setFilterText: (value: string, options?: { immediate?: boolean }) => void;
  /** The filter the rows on screen answer (deferred in client mode, debounced in server mode). */
  appliedFilter: string;
  isFiltering: boolean;
  sorting: SortingState;
  pagination: PaginationState;
  setPagination: (next: PaginationState | ((previous: PaginationState) => PaginationState)) => void;
  selectedIds: readonly string[];
  setSelectedIds: (next: readonly string[] | ((previous: readonly string[]) => readonly string[])) => void;
  selectedRows: TData[];
  helpers: SelectionHelpers;
  /** Rows matching the filter, all pages together. */
  rowCount: number;
  pageCount: number;
  /** The rows of the current page, in display order. */
  pageData: TData[];
}

/**
 * The table's state and data pipeline, apart from its markup: filter, sorting, pagination and
 * selection, each controlled by the caller or kept here. In client mode the rows are filtered, sorted
 * and paged here on index arrays; in server mode the caller does that and this hook only reports.
 * Either way TanStack Table (manual mode) only ever sees the rows of the current page.
 */
export function useDataTableModel<TData>(props: DataTableProps<TData>): DataTableModel<TData> {
  const { data, columns, onEdit, onDelete } = props;
  const server = props.mode === 'server';
  const getRowIdRef = useRef(props.getRowId);
  getRowIdRef.current = props.getRowId;
  const rowKey = useCallback((row: TData) => String(getRowIdRef.current(row)), []);

  const selectable =
    props.selectable ??
    Boolean(onEdit || onDelete || props.onSelectionChange || props.selectedIds || props.onSelectedIdsChange);

  // ---- pagination ----
  const [pagination, setPagination] = useControllableState<PaginationState>(
    props.pagination,
    () => ({ pageIndex: 0, pageSize: props.defaultPageSize ?? DEFAULT_PAGE_SIZE }),
    props.onPaginationChange,
  );
  const toFirstPage = useCallback(
    () => setPagination((p) => (p.pageIndex === 0 ? p : { ...p, pageIndex: 0 })),
    [setPagination],
  );

  // ---- keyword filter ----
  const [filter, setFilter] = useControllableState(
    props.filter,
    props.defaultFilter ?? '',
    props.onFilterChange,
  );
  // Server mode: the box shows what is typed at once; the filter is reported once typing pauses.
  const [typed, setTyped] = useState(filter);
  const reported = useRef(filter);
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    // A filter set from outside (a controlled reset) replaces what the box shows.
    if (filter !== reported.current) {
      reported.current = filter;
      setTyped(filter);
    }
  }, [filter]);
  useEffect(() => () => clearTimeout(debounce.current), []);
  const debounceMs = props.filterDebounceMs ?? DEFAULT_FILTER_DEBOUNCE_MS;
  const setFilterText = useCallback(
    (value: string, options?: { immediate?: boolean }) => {
      if (!server) {
        setFilter(value);
        toFirstPage();
        return;
      }
      setTyped(value);
      clearTimeout(debounce.current);
      const report = () => {
        if (value.trim() === reported.current.trim()) return;
        reported.current = value;
        setFilter(value);
        toFirstPage();
      };
      if (options?.immediate || debounceMs <= 0) report();
      else debounce.current = setTimeout(report, debounceMs);
    },
    [server, setFilter, toFirstPage, debounceMs],
  );
  const deferredFilter = useDeferredValue(filter);
  const appliedFilter = server ? filter : deferredFilter;

  const visibleColumns = useMemo(() => columns.filter((column) => !column.hidden), [columns]);
  // Derived data is keyed on the columns' shape, not their identity, so inline column arrays stay cheap.
  const columnsRef = useRef(columns);
  columnsRef.current = columns;
  const columnsKey = columns
    .map((column) => `${column.id}:${column.hidden ? 0 : 1}:${isSearchable(column) ? 1 : 0}`)
    .join('|');
  // One folded string per row, built once per data/columns change (client mode only).
  // biome-ignore lint/correctness/useExhaustiveDependencies: columnsKey stands for the columns
  const searchIndex = useMemo(
    () =>
      server
        ? []
        : buildSearchIndex(
            data,
            columnsRef.current.filter(isSearchable).map((column) => (row: TData) => searchText(column, row)),
          ),
    [server, data, columnsKey],
  );
  const terms = useMemo(() => queryTerms(appliedFilter), [appliedFilter]);
  const filtered = useMemo(
    () => (server || terms.length === 0 ? null : filterIndices(searchIndex, terms)),
    [server, searchIndex, terms],
  );

  // ---- sorting ----
  const [sorting, setSorting] = useControllableState<SortingState>(
    props.sorting,
    props.defaultSorting ?? [],
    props.onSortingChange,
  );
  const sortSpec = sorting[0];
  const sortColumnId = sortSpec?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: columnsKey stands for the columns
  const sortKeys = useMemo<SortKey[] | null>(() => {
    if (server) return null;
    const column = columnsRef.current.find((c) => c.id === sortColumnId);
    if (!column) return null;
    const keys = new Array<SortKey>(data.length);
    for (let i = 0; i < data.length; i++) {
      keys[i] = toSortKey(column.sortValue ? column.sortValue(data[i]) : readValue(column, data[i]));
    }
    return keys;
  }, [server, data, sortColumnId, columnsKey]);
  const sortDesc = sortSpec?.desc ?? false;
  const ordered = useMemo(() => {
    if (!sortKeys) return filtered;
    const indices = filtered ? filtered.slice() : Array.from({ length: data.length }, (_, i) => i);
    return sortIndices(indices, sortKeys, sortDesc);
  }, [filtered, sortKeys, sortDesc, data.length]);

  // ---- the current page ----
  const rowCount = server ? (props.rowCount ?? data.length) : ordered ? ordered.length : data.length;
  const pageCount = Math.max(
    1,
    server && props.pageCount !== undefined ? props.pageCount : Math.ceil(rowCount / pagination.pageSize),
  );
  const pageStart = pagination.pageIndex * pagination.pageSize;
  const pageEnd = Math.min(pageStart + pagination.pageSize, rowCount);
  const pageData = useMemo(() => {
    if (server) return data as TData[];
    const out: TData[] = [];
    for (let i = pageStart; i < pageEnd; i++) out.push(data[ordered ? ordered[i] : i]);
    return out;
  }, [server, data, ordered, pageStart, pageEnd]);

  // Keep the page in range when rows disappear (delete, filter, smaller data).
  useEffect(() => {
    if (pagination.pageIndex > pageCount - 1) {
      setPagination((p) => ({ ...p, pageIndex: pageCount - 1 }));
    }
  }, [pagination.pageIndex, pageCount, setPagination]);

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

  // Server mode: a selection spans pages the table no longer holds, so it remembers the selected rows
  // it has seen (edit and delete hand rows, not ids, to the caller).
  const seenRows = useRef(new Map<string, TData>());
  const selectedRows = useMemo(() => {
    if (selectedIds.length === 0) return [] as TData[];
    const ids = new Set(selectedIds);
    if (!server) return data.filter((row) => ids.has(rowKey(row)));
    const seen = seenRows.current;
    for (const id of seen.keys()) if (!ids.has(id)) seen.delete(id);
    for (const row of data) {
      const id = rowKey(row);
      if (ids.has(id)) seen.set(id, row);
    }
    return selectedIds.flatMap((id) => {
      const row = seen.get(id);
      return row === undefined ? [] : [row];
    });
  }, [server, data, selectedIds, rowKey]);

  // Client mode: rows that left the data (deleted, reloaded without them) leave the selection too.
  // (In server mode the data is one page, so a row missing from it is simply on another page.)
  useEffect(() => {
    if (!server && selectedRows.length !== selectedIds.length) {
      setSelectedIds(selectedRows.map(rowKey));
    }
  }, [server, selectedRows, selectedIds, rowKey, setSelectedIds]);

  const onSelectionChangeRef = useRef(props.onSelectionChange);
  onSelectionChangeRef.current = props.onSelectionChange;
  const lastReported = useRef<readonly TData[]>(selectedRows);
  useEffect(() => {
    if (!sameRows(lastReported.current, selectedRows)) {
      lastReported.current = selectedRows;
      onSelectionChangeRef.current?.(selectedRows);
    }
  }, [selectedRows]);

  const columnDefs = useMemo<ColumnDef<TData>[]>(
    () =>
      visibleColumns.map((column) => ({
        id: column.id,
        accessorFn: (row: TData) => (column.sortValue ? column.sortValue(row) : readValue(column, row)),
        enableSorting: isSortable(column),
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
    pageCount,
    manualFiltering: true,
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: selectable,
    enableMultiSort: false,
    enableSortingRemoval: false,
    autoResetPageIndex: false,
    onSortingChange: (updater) => {
      setSorting(updater);
      toFirstPage();
    },
    onPaginationChange: setPagination,
    onRowSelectionChange,
    getCoreRowModel: getCoreRowModel(),
  });

  return {
    table,
    server,
    visibleColumns,
    selectable,
    filterText: server ? typed : filter,
    setFilterText,
    appliedFilter,
    isFiltering: terms.length > 0,
    sorting,
    pagination,
    setPagination,
    selectedIds,
    setSelectedIds,
    selectedRows,
    helpers: { clearSelection },
    rowCount,
    pageCount,
    pageData,
  };
}
