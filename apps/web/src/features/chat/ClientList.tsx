import type { ChatClient } from '@hablabot/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components';
import { PauseIcon, PlayIcon, SearchIcon } from '../../components/lib/icons';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useChatClients, useToggleBotMode } from './api';
import { timeLabel } from './chat-utils';

/** Height of one client row, in px: every row is the same, so the list never measures. */
export const CLIENT_ROW_HEIGHT = 72;
const SEARCH_DEBOUNCE_MS = 300;

export interface ClientListProps {
  selectedId: number | null;
  onSelect: (client: ChatClient) => void;
}

/**
 * The conversations, most recent first: searched by the server, loaded a page at a time as the list
 * scrolls, and virtualised so only the rows on screen exist (a company may have tens of thousands).
 */
export function ClientList({ selectedId, onSelect }: ClientListProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useChatClients(term);
  const toggleBot = useToggleBotMode();
  const clients = useMemo(() => list.data?.pages.flatMap((page) => page.clients) ?? [], [list.data]);
  const viewport = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: clients.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => CLIENT_ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= clients.length - 10) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastIndex, clients.length, fetchNextPage]);

  // One "now" per render of the list: labels change day at most, not every second.
  const now = new Date();

  return (
    <div className="chat-list">
      <label className="chat-list__search">
        <SearchIcon aria-hidden="true" />
        <input
          type="search"
          value={search}
          placeholder={t('chat.search')}
          aria-label={t('chat.search')}
          onChange={(event) => setSearch(event.target.value)}
        />
      </label>
      <div ref={viewport} className="chat-list__viewport" data-testid="chat-list-viewport">
        {list.isPending ? (
          <p className="chat-list__empty">{t('chat.loadingClients')}</p>
        ) : clients.length === 0 ? (
          <p className="chat-list__empty">{t('chat.noClients')}</p>
        ) : (
          <ul
            className="chat-list__rows"
            aria-label={t('chat.clientsLabel')}
            style={{ height: `${virtualizer.getTotalSize()}px` }}
          >
            {items.map((item) => {
              const client = clients[item.index];
              if (!client) return null;
              const selected = client.id === selectedId;
              const paused = client.mode_bot === 0;
              return (
                <li
                  key={client.id}
                  className={`chat-row${selected ? ' chat-row--selected' : ''}`}
                  style={{ height: `${CLIENT_ROW_HEIGHT}px`, transform: `translateY(${item.start}px)` }}
                >
                  <button
                    type="button"
                    className="chat-row__main"
                    aria-current={selected ? 'true' : undefined}
                    onClick={() => onSelect(client)}
                  >
                    <Avatar name={client.name} src={client.avatar} size={40} decorative />
                    <span className="chat-row__body">
                      <span className="chat-row__top">
                        <span className="chat-row__name">{client.name}</span>
                        <span className="chat-row__time">
                          {timeLabel(client.last_message_date, now, language, t('chat.yesterday'))}
                        </span>
                      </span>
                      <span className="chat-row__bottom">
                        <span className="chat-row__preview">{client.last_message_content ?? ''}</span>
                        {client.unread_messages_count > 0 ? (
                          <span className="chat-row__badge">
                            <span aria-hidden="true">{client.unread_messages_count}</span>
                            <span className="sr-only">
                              {t('chat.unreadCount', { count: client.unread_messages_count })}
                            </span>
                          </span>
                        ) : null}
                      </span>
                    </span>
                  </button>
                  <button
                    type="button"
                    className={`chat-row__bot${paused ? ' chat-row__bot--paused' : ''}`}
                    aria-label={t(paused ? 'chat.resumeBot' : 'chat.pauseBot', { name: client.name })}
                    title={t(paused ? 'chat.resumeBot' : 'chat.pauseBot', { name: client.name })}
                    disabled={toggleBot.isPending && toggleBot.variables?.clientId === client.id}
                    onClick={() => toggleBot.mutate({ clientId: client.id, mode: paused ? 1 : 0 })}
                  >
                    {paused ? <PlayIcon aria-hidden="true" /> : <PauseIcon aria-hidden="true" />}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
