import { foldText } from '../lib/text';
import type { Primitive } from './pipeline';
import type { DataTableColumn } from './types';

export function readValue<TData>(column: DataTableColumn<TData>, row: TData): Primitive {
  const { accessor } = column;
  if (accessor === undefined) return undefined;
  if (typeof accessor === 'function') return accessor(row);
  return row[accessor] as Primitive;
}

export function searchText<TData>(column: DataTableColumn<TData>, row: TData): string {
  const raw = column.searchValue ? column.searchValue(row) : readValue(column, row);
  const values = Array.isArray(raw) ? raw : [raw];
  return values
    .map((value) => (value instanceof Date ? value.toLocaleDateString() : foldText(value)))
    .join(' ');
}

export function isSearchable<TData>(column: DataTableColumn<TData>): boolean {
  if (column.hidden) return false;
  return column.searchable ?? (column.accessor !== undefined || column.searchValue !== undefined);
}

export function isSortable<TData>(column: DataTableColumn<TData>): boolean {
  return column.sortable ?? (column.accessor !== undefined || column.sortValue !== undefined);
}

export function toCssLength(value: number | string | undefined): string | undefined {
  return typeof value === 'number' ? `${value}px` : value;
}

export function renderValue(value: Primitive): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toLocaleString();
  if (typeof value === 'boolean') return value ? '✓' : '';
  return String(value);
}
