import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button/Button';
import { CloseIcon, PencilIcon, SearchIcon, TrashIcon } from '../lib/icons';
import type { DataTableModel } from './useDataTableModel';

export interface DataTableToolbarProps<TData> {
  model: DataTableModel<TData>;
  tableId: string;
  filterable: boolean;
  filterPlaceholder?: string;
  toolbar?: ReactNode;
  onEdit?: (row: TData, helpers: DataTableModel<TData>['helpers']) => void;
  onDelete?: (rows: TData[], helpers: DataTableModel<TData>['helpers']) => void;
  editLabel?: string;
  deleteLabel?: string;
}

/** Keyword filter, the selection count, the caller's actions and the edit/delete buttons. */
export function DataTableToolbar<TData>({
  model,
  tableId,
  filterable,
  filterPlaceholder,
  toolbar,
  onEdit,
  onDelete,
  editLabel,
  deleteLabel,
}: DataTableToolbarProps<TData>) {
  const { t } = useTranslation();
  const { filterText, setFilterText, selectable, selectedIds, selectedRows, helpers } = model;
  const filterId = `${tableId}-filter`;
  // Edit acts on one row: it is enabled only when exactly one is selected (and known to the table).
  const exactlyOne = selectedIds.length === 1 && selectedRows.length === 1;

  return (
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
            value={filterText}
            placeholder={filterPlaceholder ?? t('widgets.dataTable.filterPlaceholder')}
            onChange={(event) => setFilterText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') setFilterText(filterText, { immediate: true });
              // Escape clears the search first (and does not close an enclosing modal meanwhile).
              if (event.key === 'Escape' && filterText) {
                event.preventDefault();
                event.stopPropagation();
                setFilterText('', { immediate: true });
              }
            }}
            aria-controls={`${tableId}-grid`}
            autoComplete="off"
            spellCheck={false}
          />
          {filterText && (
            <button
              type="button"
              className="hb-icon-btn hb-table__search-clear"
              aria-label={t('widgets.dataTable.clearFilter')}
              onClick={() => setFilterText('', { immediate: true })}
            >
              <CloseIcon size={14} />
            </button>
          )}
        </div>
      )}
      {selectable && selectedIds.length > 0 && (
        <div className="hb-table__selection">
          <span>{t('widgets.dataTable.selected', { count: selectedIds.length })}</span>
          <button type="button" className="hb-table__link" onClick={helpers.clearSelection}>
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
  );
}
