import type { ClientSortField } from '@hablabot/contract';
import type { PaginationState, SortingState } from '../../components';
import type { ClientsPageQuery } from './api';

// The clients table's state (search, sort, page) as the server's query.

/** The server sorts by these fields; table columns map onto them (the segments column does not sort). */
const SORT_FIELD_OF_COLUMN: Record<string, ClientSortField> = {
  id: 'id',
  name: 'name',
  whatsapp: 'whatsapp_cellphone',
};

/**
 * The search as the server should see it: a phone typed with its '+' (as the table shows it) is
 * searched by its digits, which is how numbers are stored.
 */
export function serverSearch(filter: string): string {
  const text = filter.trim();
  return /^\+[\d\s-]+$/.test(text) ? text.replace(/\D/g, '') : text;
}

/** The table's state as the query GET /admin/client answers. */
export function clientsPageQuery(
  filter: string,
  sorting: SortingState,
  pagination: PaginationState,
): ClientsPageQuery {
  const sort = sorting[0];
  const field = sort ? SORT_FIELD_OF_COLUMN[sort.id] : undefined;
  return {
    search: serverSearch(filter),
    page: pagination.pageIndex + 1,
    per_page: pagination.pageSize,
    sort: field ?? 'id',
    order: field && sort?.desc ? 'desc' : 'asc',
  };
}
