import type { ClientList } from '@hablabot/contract';
import { type ComponentPropsWithRef, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../components';
import type { FieldControlProps } from '../../components/Form/FormField';
import { SearchIcon } from '../../components/lib/icons';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useClientLists } from './api';

export interface ListSelectProps {
  /** The form field's accessibility attributes (its label points at the select). */
  field: FieldControlProps;
  /** The select's registration in the form (`register('list_id')`). */
  registration: ComponentPropsWithRef<'select'>;
  /** The chosen list's id; null for none. */
  listId: number | null;
  /** The lists the page has loaded (its first pages), offered while nothing is searched. */
  lists: readonly ClientList[];
  /** True when the company has more lists than `lists`. */
  hasMore: boolean;
  /** The chosen list, once known. */
  onChosen: (list: ClientList | null) => void;
}

/**
 * The list a send goes to, among all of the company's however many: the select offers the lists the
 * page has loaded, and a name typed in the search box asks the server for the matching ones. The chosen
 * list stays among the options whatever is searched.
 */
export function ListSelect({ field, registration, listId, lists, hasMore, onChosen }: ListSelectProps) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const found = useClientLists(debounced, { enabled: debounced !== '' });
  const results = useMemo(
    () => (debounced ? (found.data?.pages[0]?.data ?? []) : lists),
    [debounced, found.data, lists],
  );
  const more = debounced ? Boolean(found.hasNextPage) : hasMore;
  // Every list seen so far, so the chosen one keeps its option when a search leaves it out.
  const seen = useRef(new Map<number, ClientList>());
  for (const list of results) seen.current.set(list.id, list);
  const chosen = listId === null ? null : (seen.current.get(listId) ?? null);
  const options = chosen && !results.some((list) => list.id === chosen.id) ? [chosen, ...results] : results;

  useEffect(() => {
    onChosen(chosen);
  }, [chosen, onChosen]);

  return (
    <>
      <div className="mm-picker__search">
        <SearchIcon size={16} aria-hidden="true" />
        <input
          type="search"
          className="hb-input"
          value={search}
          aria-label={t('massMessages.form.listSearch')}
          placeholder={t('massMessages.form.listSearch')}
          onChange={(event) => setSearch(event.target.value)}
          autoComplete="off"
        />
      </div>
      <select {...field} className="hb-input" {...registration}>
        <option value="">{t('massMessages.form.listPlaceholder')}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name} (
            {t('massMessages.lists.count', {
              count: option.clients_count,
              formatted: formatNumber(option.clients_count, i18n.language),
            })}
            )
          </option>
        ))}
        {debounced && found.isSuccess && options.length === 0 ? (
          <option value="" disabled>
            {t('massMessages.form.listNone')}
          </option>
        ) : null}
        {more ? (
          <option value="" disabled>
            {t('massMessages.form.listMore')}
          </option>
        ) : null}
      </select>
    </>
  );
}
