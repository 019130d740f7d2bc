import type { Conversation, ConversationView } from '@hablabot/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components';
import { PauseIcon, PlayIcon, SearchIcon } from '../../components/lib/icons';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useChatConversations, useToggleBotMode } from './api';
import { firstView } from './first-page';
import { useViewer } from './inbox-api';
import { timeLabel } from './chat-utils';

/** Height of one client row, in px: every row is the same, so the list never measures. */
export const CLIENT_ROW_HEIGHT = 72;
// Short enough that a search's first row shows within 300 ms of the last keystroke (issue 25's budget,
// bench/chat-list.ts), long enough that typing asks once per word, not once per letter.
const SEARCH_DEBOUNCE_MS = 150;

export interface ClientListProps {
  selectedId: number | null;
  onSelect: (conversation: Conversation) => void;
}

/**
 * The views an agent has: 'Míos' and 'Sin asignar'; 'Todos' and 'Resueltos' too when the server says they
 * see every conversation (`sees_all`: the company lets agents see everything — a setting only admins may
 * read). Admins have the four.
 */
function viewsFor(agent: boolean, seesAll: boolean): readonly ConversationView[] {
  return agent && !seesAll ? ['mine', 'unassigned'] : ['mine', 'unassigned', 'all', 'resolved'];
}

/**
 * The conversations, most recent first: searched by the server, loaded a page at a time as the list
 * scrolls, and virtualised so only the rows on screen exist (a company may have tens of thousands).
 */
export function ClientList({ selectedId, onSelect }: ClientListProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const viewer = useViewer();
  // An admin starts on every open conversation; an agent on their own.
  const [view, setView] = useState<ConversationView>(() => firstView(viewer.agent));
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useChatConversations(view, term);
  const toggleBot = useToggleBotMode();
  const clients = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  const counts = list.data?.pages[0]?.counts;
  // What the last answer said (a list still loading keeps the tabs as they were).
  const [seesAll, setSeesAll] = useState(false);
  const answered = list.data?.pages[0]?.sees_all;
  if (answered !== undefined && answered !== seesAll) setSeesAll(answered);
  const views = viewsFor(viewer.agent, seesAll);
  // The company stopped letting agents see everything while one was on a wider view: back to their own.
  if (answered === false && !views.includes(view)) setView('mine');
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
      <div className="chat-tabs" role="tablist" aria-label={t('chat.views.label')}>
        {views.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`chat-tab-${name}`}
            aria-selected={name === view}
            aria-controls="chat-list-viewport"
            tabIndex={name === view ? 0 : -1}
            className={`chat-tabs__tab${name === view ? ' chat-tabs__tab--selected' : ''}`}
            onClick={() => setView(name)}
            onKeyDown={(event) => {
              // The tabs pattern: arrows move between the views, one Tab stop for the row of tabs.
              const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
              if (step === 0) return;
              event.preventDefault();
              const next = views[
                (views.indexOf(name) + step + views.length) % views.length
              ] as ConversationView;
              setView(next);
              document.getElementById(`chat-tab-${next}`)?.focus();
            }}
          >
            {t(`chat.views.${name}`)}
            {name !== 'resolved' && counts ? (
              <>
                {' '}
                <span className="chat-tabs__count">{counts[name]}</span>
              </>
            ) : null}
          </button>
        ))}
      </div>
      <div
        ref={viewport}
        id="chat-list-viewport"
        role="tabpanel"
        aria-labelledby={`chat-tab-${view}`}
        className="chat-list__viewport"
        data-testid="chat-list-viewport"
      >
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
              const row = clients[item.index];
              if (!row) return null;
              const { client } = row;
              const selected = client.id === selectedId;
              const paused = row.mode_bot === 0;
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
                    onClick={() => onSelect(row)}
                  >
                    <Avatar name={client.name} src={null} size={40} decorative />
                    <span className="chat-row__body">
                      <span className="chat-row__top">
                        <span className="chat-row__name">{client.name}</span>
                        <span className="chat-row__time">
                          {timeLabel(row.last_message_date, now, language, t('chat.yesterday'))}
                        </span>
                      </span>
                      <span className="chat-row__bottom">
                        <span className="chat-row__preview">{row.last_message_content ?? ''}</span>
                        {row.unread_count > 0 ? (
                          <span className="chat-row__badge">
                            <span aria-hidden="true">{row.unread_count}</span>
                            <span className="sr-only">
                              {t('chat.unreadCount', { count: row.unread_count })}
                            </span>
                          </span>
                        ) : null}
                      </span>
                    </span>
                  </button>
                  {/* The icon shows the bot's state (running or paused); the label says what a click does. */}
                  <button
                    type="button"
                    className={`chat-row__bot${paused ? ' chat-row__bot--paused' : ''}`}
                    data-bot-state={paused ? 'paused' : 'active'}
                    aria-label={t(paused ? 'chat.resumeBot' : 'chat.pauseBot', { name: client.name })}
                    title={`${t(paused ? 'chat.botState.paused' : 'chat.botState.active')} · ${t(
                      paused ? 'chat.resumeBot' : 'chat.pauseBot',
                      { name: client.name },
                    )}`}
                    disabled={toggleBot.isPending && toggleBot.variables?.clientId === client.id}
                    onClick={() => toggleBot.mutate({ clientId: client.id, mode: paused ? 1 : 0 })}
                  >
                    {paused ? <PauseIcon aria-hidden="true" /> : <PlayIcon aria-hidden="true" />}
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
