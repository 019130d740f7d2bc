import type { Row } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingOverlay } from '../LoadingOverlay/LoadingOverlay';
import { SortIcon } from '../lib/icons';
import { cx } from '../lib/text';
import { cardOrder } from './cards';
import { Checkbox } from './Checkbox';
import { readValue, renderValue, toCssLength } from './columns';
import { ACTIONS, colWidth, stickyOffsets } from './pinned';
import type { DataTableModel } from './useDataTableModel';

export interface DataTableBodyProps<TData> {
  model: DataTableModel<TData>;
  tableId: string;
  label: string;
  rowActions?: (row: TData) => ReactNode;
  rowActionsWidth?: number | string;
  stickyActions: boolean;
  /** Rows as cards (phones): see `DataTableProps.cards`. */
  cards: boolean;
  minWidth?: number | string;
  emptyMessage?: ReactNode;
  loading: boolean;
  virtualizeAbove: number;
  virtualHeight: number | string;
  estimatedRowHeight: number;
  rowClassName?: (row: TData) => string | undefined;
}

/**
 * A plain-text cell: one line cut with an ellipsis where the column is too narrow for it (fixed
 * layouts), the full text then in its tooltip; on cards it wraps instead.
 */
function PlainText({ text }: { text: string }) {
  if (text === '') return null;
  return (
    <span className="hb-table__text" title={text}>
      {text}
    </span>
  );
}

/**
 * The grid: header with sort buttons and select-all, and the rows of the current page. Pages longer
 * than `virtualizeAbove` render only the rows in view (TanStack Virtual) inside a scrolling body.
 */
export function DataTableBody<TData>({
  model,
  tableId,
  label,
  rowActions,
  rowActionsWidth,
  stickyActions,
  cards,
  minWidth,
  emptyMessage,
  loading,
  virtualizeAbove,
  virtualHeight,
  estimatedRowHeight,
  rowClassName,
}: DataTableBodyProps<TData>) {
  const { t } = useTranslation();
  const { table, selectable, setSelectedIds, pagination, sorting, appliedFilter } = model;
  const rows = table.getRowModel().rows;
  const visibleColumns = useMemo(
    () => (cards ? cardOrder(model.visibleColumns) : model.visibleColumns),
    [cards, model.visibleColumns],
  );
  // Cards keep the table's roles explicitly: some browsers drop them from rows no longer displayed as rows.
  const role = (name: string) => (cards ? { role: name } : {});
  const hasActions = Boolean(rowActions);
  const colSpan = visibleColumns.length + (selectable ? 1 : 0) + (hasActions ? 1 : 0);

  // Nothing is pinned on a card: its actions sit at its foot, below the content.
  const pinned = useMemo(
    () =>
      stickyOffsets(visibleColumns, {
        present: hasActions,
        sticky: stickyActions && !cards,
        width: rowActionsWidth,
      }),
    [visibleColumns, hasActions, stickyActions, cards, rowActionsWidth],
  );
  // The left-most pinned column (the last one pinned) draws the shadow edge.
  const edgeKey = useMemo(() => [...pinned.keys()].at(-1), [pinned]);
  const stickyProps = (key: string, className?: string) => {
    const right = pinned.get(key);
    if (right === undefined) return { className };
    return {
      className: cx(className, 'hb-table__sticky', key === edgeKey && 'hb-table__sticky--edge'),
      style: { right } as CSSProperties,
    };
  };

  // Anchor for shift+click range selection: the page row last toggled (reset when the page changes).
  const lastToggled = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the anchor belongs to one page of one result set
  useEffect(() => {
    lastToggled.current = null;
  }, [model.pageData]);

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
  }, [pagination.pageIndex, pagination.pageSize, appliedFilter, sorting]);

  // While columns hide behind the pinned ones, the pinned edge casts a shadow (data-overflow="end").
  const hasPinned = pinned.size > 0;
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (!hasPinned || !scroller) return;
    const update = () => {
      const hidden = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1;
      if ((scroller.dataset.overflow === 'end') !== hidden) scroller.dataset.overflow = hidden ? 'end' : '';
    };
    update();
    scroller.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, [hasPinned]);

  // A table wider (or, virtualised, taller) than its box scrolls inside it; the scrolling box then takes
  // the keyboard focus (and is named like the table) so arrow keys can scroll it even when no row has a
  // button to tab to — an empty list on a phone, say. A box that fits stays out of the tab order.
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const update = () =>
      setScrolls(
        scroller.scrollWidth > scroller.clientWidth + 1 || scroller.scrollHeight > scroller.clientHeight + 1,
      );
    update();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(scroller);
    if (scroller.firstElementChild) observer?.observe(scroller.firstElementChild);
    return () => observer?.disconnect();
  }, []);

  const virtualItems = virtualize ? virtualizer.getVirtualItems() : [];
  const paddingTop = virtualize && virtualItems.length > 0 ? virtualItems[0].start : 0;
  const paddingBottom =
    virtualize && virtualItems.length > 0
      ? virtualizer.getTotalSize() - virtualItems[virtualItems.length - 1].end
      : 0;
  const renderedRows: Array<{ row: Row<TData>; index: number }> = virtualize
    ? virtualItems.map((item) => ({ row: rows[item.index], index: item.index }))
    : rows.map((row, index) => ({ row, index }));

  const scrollStyle: CSSProperties | undefined = virtualize
    ? { height: toCssLength(virtualHeight), overflow: 'auto' }
    : undefined;

  return (
    <div
      className={cx('hb-table__scroll', virtualize && 'hb-table__scroll--virtual')}
      ref={scrollRef}
      style={scrollStyle}
      data-testid="table-scroll"
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      <table
        id={`${tableId}-grid`}
        className={cx('hb-table__grid', virtualize && 'hb-table__grid--fixed')}
        style={{ minWidth: cards ? undefined : toCssLength(minWidth) }}
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-busy={loading || undefined}
        {...role('table')}
      >
        <colgroup>
          {selectable && <col style={{ width: 48 }} />}
          {visibleColumns.map((column) => (
            <col
              key={column.id}
              data-column={column.id}
              style={{ width: colWidth(column.id, column.width) }}
            />
          ))}
          {hasActions && (
            <col data-column="actions" style={{ width: colWidth('actions', rowActionsWidth) }} />
          )}
        </colgroup>
        <thead {...role('rowgroup')}>
          <tr aria-rowindex={1} {...role('row')}>
            {selectable && (
              <th scope="col" className="hb-table__check-cell" {...role('columnheader')}>
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
                  {...role('columnheader')}
                  aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  {...stickyProps(
                    column.id,
                    cx(column.align && `hb-align-${column.align}`, column.className),
                  )}
                >
                  {canSort ? (
                    <button
                      type="button"
                      className={cx('hb-table__sort', sorted && 'hb-table__sort--active')}
                      onClick={() => tanColumn?.toggleSorting(sorted === 'asc')}
                      aria-label={t('widgets.dataTable.sortBy', { column: column.header })}
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
              <th scope="col" {...role('columnheader')} {...stickyProps(ACTIONS, 'hb-align-end')}>
                <span className="hb-table__actions-label">{t('widgets.dataTable.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody {...role('rowgroup')}>
          {rows.length === 0 ? (
            <tr {...role('row')}>
              <td colSpan={colSpan} className="hb-table__empty" {...role('cell')}>
                {loading
                  ? null
                  : model.isFiltering
                    ? t('widgets.dataTable.noMatches', { query: appliedFilter.trim() })
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
                    {...role('row')}
                  >
                    {selectable && (
                      <td className="hb-table__check-cell" {...role('cell')}>
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
                      const content = column.cell ? (
                        column.cell(original, value)
                      ) : (
                        <PlainText text={renderValue(value)} />
                      );
                      return (
                        <td
                          key={column.id}
                          data-column={column.id}
                          {...role('cell')}
                          {...stickyProps(
                            column.id,
                            cx(column.align && `hb-align-${column.align}`, column.className),
                          )}
                        >
                          {cards ? (
                            <>
                              <span className="hb-table__cell-label" aria-hidden="true">
                                {column.header}
                              </span>
                              <div className="hb-table__cell-value">{content}</div>
                            </>
                          ) : (
                            content
                          )}
                        </td>
                      );
                    })}
                    {hasActions && (
                      <td data-column="actions" {...role('cell')} {...stickyProps(ACTIONS, 'hb-align-end')}>
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
  );
}
