import type { Client, ClientsResponse } from '@hablabot/contract';
import { clientsApi } from '@hablabot/contract/api';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Chip, formatNumber } from '../../components';
import { SearchIcon } from '../../components/lib/icons';
import { call } from '../../lib/api-client';
import { useDebouncedValue } from '../../lib/use-debounced-value';

/** Clients asked for at a time while searching: the company may have 50,000, the list shows a page. */
export const PICKER_PAGE_SIZE = 25;
/** The chosen clients shown as chips; the rest are counted ('y 120 más'). */
export const PICKER_CHIPS_SHOWN = 30;

export function clientLabel(client: Pick<Client, 'name' | 'last_names'>): string {
  return `${client.name} ${client.last_names ?? ''}`.trim();
}

type ClientsPage = Pick<ClientsResponse, 'clients'> & { pagination?: ClientsResponse['pagination'] };

/** GET /admin/client, searched by the server a page at a time (name, last names, email or phone digits). */
function useClientSearch(search: string) {
  return useInfiniteQuery({
    queryKey: ['mass-messages', 'client-search', search],
    queryFn: ({ pageParam, signal }): Promise<ClientsPage> =>
      call(
        clientsApi.list,
        {
          query: {
            ...(search ? { search } : {}),
            page: pageParam,
            per_page: PICKER_PAGE_SIZE,
            sort: 'name',
            order: 'asc',
          },
        },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pagination && last.pagination.current_page < last.pagination.last_page
        ? last.pagination.current_page + 1
        : undefined,
    placeholderData: keepPreviousData,
  });
}

export interface ClientPickerProps {
  /** The chosen clients' ids, in the order chosen. */
  value: readonly number[];
  onChange: (value: number[]) => void;
  /** Names of chosen clients, as far as known (a list of 50,000 is not loaded whole). */
  labels: ReadonlyMap<number, string>;
  /** Names the picker has learnt (clients chosen from the results). */
  onLabels: (entries: [number, string][]) => void;
  /** Id of the search box (the form field's label points at it). */
  id: string;
  invalid?: boolean;
  describedBy?: string;
  /** Extra controls under the search (the segment shortcut). */
  extra?: ReactNode;
}

/**
 * Chooses clients among all of the company's, however many: the search runs on the server and the
 * results come a page at a time ('Cargar más'), each a checkbox. The chosen ones stay as chips above.
 */
export function ClientPicker({
  value,
  onChange,
  labels,
  onLabels,
  id,
  invalid,
  describedBy,
  extra,
}: ClientPickerProps) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const results = useClientSearch(debounced);
  const resultsId = useId();
  const chosen = useMemo(() => new Set(value), [value]);
  const clients = useMemo(() => results.data?.pages.flatMap((page) => page.clients) ?? [], [results.data]);
  const total = results.data?.pages[0]?.pagination?.total ?? clients.length;

  const toggle = (client: Client) => {
    if (chosen.has(client.id)) onChange(value.filter((picked) => picked !== client.id));
    else {
      onLabels([[client.id, clientLabel(client)]]);
      onChange([...value, client.id]);
    }
  };
  const pageIds = clients.map((client) => client.id);
  const allShownChosen = pageIds.length > 0 && pageIds.every((clientId) => chosen.has(clientId));
  const toggleShown = () => {
    if (allShownChosen) {
      const shown = new Set(pageIds);
      onChange(value.filter((picked) => !shown.has(picked)));
    } else {
      const added = clients.filter((client) => !chosen.has(client.id));
      onLabels(added.map((client) => [client.id, clientLabel(client)]));
      onChange([...value, ...added.map((client) => client.id)]);
    }
  };

  const shownChips = value.slice(0, PICKER_CHIPS_SHOWN);
  const hidden = value.length - shownChips.length;

  return (
    <div className="mm-picker">
      <div className="mm-picker__chosen" aria-live="polite">
        <span className="mm-picker__count">
          {t('massMessages.picker.selected', {
            count: value.length,
            formatted: formatNumber(value.length, i18n.language),
          })}
        </span>
        {value.length > 0 && (
          <>
            <ul className="mm-picker__chips">
              {shownChips.map((picked) => {
                const label = labels.get(picked) ?? t('massMessages.picker.clientNumber', { id: picked });
                return (
                  <li key={picked}>
                    <Chip
                      size="sm"
                      label={label}
                      onRemove={() => onChange(value.filter((other) => other !== picked))}
                      removeLabel={t('massMessages.picker.remove', { name: label })}
                    />
                  </li>
                );
              })}
              {hidden > 0 && (
                <li className="mm-picker__more">
                  {t('massMessages.picker.andMore', { formatted: formatNumber(hidden, i18n.language) })}
                </li>
              )}
            </ul>
            <Button size="sm" variant="ghost" onClick={() => onChange([])}>
              {t('massMessages.picker.clear')}
            </Button>
          </>
        )}
      </div>
      <div className="mm-picker__search">
        <SearchIcon size={16} aria-hidden="true" />
        <input
          id={id}
          type="search"
          className="hb-input"
          value={search}
          placeholder={t('massMessages.picker.search')}
          onChange={(event) => setSearch(event.target.value)}
          aria-controls={resultsId}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
        />
      </div>
      {extra}
      <div className="mm-picker__results-head">
        <span>
          {results.isPending
            ? t('massMessages.picker.loading')
            : t('massMessages.picker.found', {
                count: total,
                formatted: formatNumber(total, i18n.language),
              })}
        </span>
        {clients.length > 0 && (
          <Button size="sm" variant="ghost" onClick={toggleShown}>
            {allShownChosen ? t('massMessages.picker.unselectShown') : t('massMessages.picker.selectShown')}
          </Button>
        )}
      </div>
      <ul id={resultsId} className="mm-picker__results" aria-label={t('massMessages.picker.results')}>
        {clients.map((client) => (
          <li key={client.id}>
            <label className="mm-picker__option">
              <input type="checkbox" checked={chosen.has(client.id)} onChange={() => toggle(client)} />
              <span className="mm-picker__name">{clientLabel(client)}</span>
              <span className="mm-picker__phone" dir="ltr">
                +{client.whatsapp_cellphone}
              </span>
            </label>
          </li>
        ))}
        {!results.isPending && clients.length === 0 && (
          <li className="mm-picker__empty">{t('massMessages.picker.none')}</li>
        )}
      </ul>
      {results.hasNextPage && (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => results.fetchNextPage()}
          busy={results.isFetchingNextPage}
        >
          {t('massMessages.picker.loadMore')}
        </Button>
      )}
    </div>
  );
}
