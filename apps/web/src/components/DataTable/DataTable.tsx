import { useMediaQuery } from '../../lib/use-media-query';
import { useStableId } from '../lib/useId';
import { cx } from '../lib/text';
import { CARDS_QUERY } from './cards';
import { DataTableBody } from './DataTableBody';
import { DataTablePager } from './DataTablePager';
import { DataTableToolbar } from './DataTableToolbar';
import { PAGE_SIZES, type DataTableProps } from './types';
import { useDataTableModel } from './useDataTableModel';
import '../lib/tokens.css';
import './DataTable.css';

export {
  type DataTableColumn,
  type DataTableMode,
  type DataTableProps,
  DEFAULT_FILTER_DEBOUNCE_MS,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  type PaginationState,
  type SelectionHelpers,
  type SortingState,
} from './types';

/**
 * The product's list widget: keyword filter, row selection (edit needs exactly one row, delete one or
 * more), sorting by column and 'Pag x | y' pagination. Every piece of state can be controlled or left
 * to the table. In `mode="server"` the table shows one page the caller fetched and reports the filter,
 * sorting and page it should fetch next. On phones (up to 640px) each row is a card. Pieces: `useDataTableModel` (state and data), the toolbar, the
 * body (virtualised rows) and the pager.
 */
export function DataTable<TData>(props: DataTableProps<TData>) {
  const {
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
    stickyActions = true,
    pageSizes = PAGE_SIZES,
    cards: cardsAllowed = true,
    minWidth,
    emptyMessage,
    loading = false,
    virtualizeAbove = 100,
    virtualHeight = 'min(70vh, 640px)',
    estimatedRowHeight = 48,
    rowClassName,
    className,
  } = props;
  const tableId = useStableId(props.id, 'hb-table');
  const model = useDataTableModel(props);
  const cards = useMediaQuery(CARDS_QUERY) && cardsAllowed;

  return (
    <div
      className={cx('hb-table', cards && 'hb-table--cards', className)}
      id={tableId}
      data-mode={model.server ? 'server' : 'client'}
    >
      <DataTableToolbar
        model={model}
        tableId={tableId}
        filterable={filterable}
        filterPlaceholder={filterPlaceholder}
        toolbar={toolbar}
        onEdit={onEdit}
        onDelete={onDelete}
        editLabel={editLabel}
        deleteLabel={deleteLabel}
      />
      <DataTableBody
        model={model}
        tableId={tableId}
        label={label}
        rowActions={rowActions}
        rowActionsWidth={rowActionsWidth}
        stickyActions={stickyActions}
        cards={cards}
        minWidth={minWidth}
        emptyMessage={emptyMessage}
        loading={loading}
        virtualizeAbove={virtualizeAbove}
        virtualHeight={virtualHeight}
        estimatedRowHeight={estimatedRowHeight}
        rowClassName={rowClassName}
      />
      <DataTablePager model={model} tableId={tableId} pageSizes={pageSizes} />
    </div>
  );
}
