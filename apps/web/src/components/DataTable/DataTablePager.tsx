import { useTranslation } from 'react-i18next';
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from '../lib/icons';
import { formatNumber } from '../lib/format';
import type { DataTableModel } from './useDataTableModel';

export interface DataTablePagerProps<TData> {
  model: DataTableModel<TData>;
  tableId: string;
  pageSizes: readonly number[];
}

/** Page size, the 'x–y of n' count, and 'Pag x | y' with first/previous/next/last. */
export function DataTablePager<TData>({ model, tableId, pageSizes }: DataTablePagerProps<TData>) {
  const { t, i18n } = useTranslation();
  const { table, pagination, setPagination, rowCount, pageCount, isFiltering } = model;
  const firstRowNumber = pagination.pageIndex * pagination.pageSize;
  const countKey = isFiltering ? 'results' : 'total';
  const statusText =
    rowCount === 0
      ? t(`widgets.dataTable.${countKey}`, { count: 0 })
      : t(`widgets.dataTable.${countKey}Range`, {
          from: formatNumber(Math.min(firstRowNumber + 1, rowCount), i18n.language),
          to: formatNumber(Math.min(firstRowNumber + pagination.pageSize, rowCount), i18n.language),
          total: formatNumber(rowCount, i18n.language),
          count: rowCount,
        });

  return (
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
  );
}
