import type { Conversation as ConversationRow } from '@hablabot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ChatIcon } from '../../components/lib/icons';
import type { ReceivedEvent } from '../../lib/event-stream';
import { useDocumentTitle } from '../../lib/use-document-title';
import { MOBILE_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { useServerEvents } from '../../lib/use-server-events';
import type { ChatNavigationState } from '../clients/ClientsPage';
import {
  appendCachedMessage,
  applyConversationChange,
  bumpChatClient,
  cachedUnread,
  chatKeys,
  updateCachedMessage,
  updateChatClients,
  useCachedUnread,
  useMarkAsRead,
} from './api';
import { ConversationActions } from './ConversationActions';
import { BotPausedBanner } from './BotPausedBanner';
import { HandoffNotice, shownClientName } from './HandoffNotice';
import { stillVisible, useViewer } from './inbox-api';
import { ClientList } from './ClientList';
import type { ChatContact } from './Conversation';
import { SCHEDULED_STATUS, removeCachedMessage } from './scheduled';
import './chat.css';
import './inbox.css';

/**
 * The open conversation (thread, composer, templates, media picker) is its own chunk: the list's first
 * rows do not wait for it. It is fetched once the screen is up (see ChatPage), before anyone opens one.
 */
const loadConversation = () => import('./Conversation');
const Conversation = lazy(() => loadConversation().then((m) => ({ default: m.Conversation })));

function contactFromState(state: unknown): ChatContact | null {
  const client = (state as Partial<ChatNavigationState> | null)?.client;
  if (!client || typeof client.id !== 'number') return null;
  return { id: client.id, name: client.name ?? '', phone: client.phone ?? '', avatar: client.avatar ?? null };
}

/** Live chat: the conversations on the left, the open one on the right (one at a time on a phone). */
export default function ChatPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('chat.title'));
  const location = useLocation();
  const queryClient = useQueryClient();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [contact, setContact] = useState<ChatContact | null>(() => contactFromState(location.state));
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  /** Who took the conversation an agent had open and may no longer see (it was closed). */
  const [lostTo, setLostTo] = useState<string | null>(null);
  // A customer asked for a person: who, as the lists on screen name them (null: not loaded here).
  const [handoff, setHandoff] = useState<{ name: string | null } | null>(null);

  const viewer = useViewer();
  // The conversation's code, fetched after the list's first rows have had the network to themselves.
  useEffect(() => {
    const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 0));
    idle(() => void loadConversation().catch(() => {}));
  }, []);
  const select = useCallback(
    (row: ConversationRow) => {
      // The header reads the row as the list has it now.
      queryClient.setQueryData(chatKeys.state(row.client.id), row);
      setLostTo(null);
      setContact({
        id: row.client.id,
        name: row.client.name,
        phone: row.client.whatsapp_cellphone,
        avatar: null,
      });
    },
    [queryClient],
  );

  // The open client's unread count as the list knows it now (the list is kept live).
  const unread = useCachedUnread(contact?.id ?? null);
  const { mutate: markRead } = useMarkAsRead();

  /**
   * Whether the person is looking at this client's conversation now: it is the open one and the page is
   * visible. Messages arriving then never raise its badge: they are read as they come (those unread from
   * before still wait SPEC's few seconds, see Conversation).
   */
  const watching = (clientId: number) =>
    contact?.id === clientId && globalThis.document?.visibilityState === 'visible';
  /** The unread count to show for a client the server counts `count` for (see `watching`). */
  const shownUnread = (clientId: number, count: number) => {
    if (!watching(clientId) || count === 0) return count;
    const before = cachedUnread(queryClient, clientId);
    if (before === 0) markRead(clientId);
    return Math.min(before, count);
  };

  useServerEvents((event: ReceivedEvent) => {
    switch (event.type) {
      case 'message.created': {
        const { message } = event.data;
        appendCachedMessage(queryClient, event.data.client_id, message);
        // A bot failure note, the team's internal notes and a message scheduled for later are not the
        // conversation's preview.
        if (message.kind !== 'bot_failure' && message.kind !== 'note' && message.status !== SCHEDULED_STATUS)
          bumpChatClient(queryClient, event.data.client_id, {
            last_message_content: message.content,
            last_message_date: message.created_at,
          });
        break;
      }
      // A customer's media was fetched (or given up on): the stored message replaces the shown one.
      case 'message.updated': {
        const updated = event.data.message;
        updateCachedMessage(queryClient, event.data.client_id, updated.id, () => updated);
        break;
      }
      // A scheduled message was cancelled: it leaves the conversation.
      case 'message.deleted':
        removeCachedMessage(queryClient, event.data.client_id, event.data.message_id);
        break;
      case 'message.status':
        updateCachedMessage(queryClient, event.data.client_id, event.data.message_id, (message) => ({
          ...message,
          status: event.data.status,
          error_message: event.data.error ?? message.error_message,
          error: event.data.error_detail === undefined ? message.error : event.data.error_detail,
        }));
        break;
      case 'client.bot_mode':
        updateChatClients(queryClient, event.data.client_id, (row) => ({
          ...row,
          mode_bot: event.data.mode_bot,
        }));
        break;
      case 'client.unread': {
        const unreadCount = shownUnread(event.data.client_id, event.data.unread_messages_count);
        updateChatClients(queryClient, event.data.client_id, (row) => ({
          ...row,
          unread_count: unreadCount,
          last_message_content: event.data.last_message_content,
          last_message_date: event.data.last_message_date,
        }));
        break;
      }
      // Assigned, released, resolved or reopened, by anyone: rows move between the views.
      case 'conversation.changed': {
        const { conversation } = event.data;
        const unreadCount = shownUnread(event.data.client_id, conversation.unread_count);
        applyConversationChange(queryClient, { ...conversation, unread_count: unreadCount }, viewer.id);
        // An agent's open conversation given to someone else: closed when the server no longer shows it
        // to them (the web does not know whether the company lets agents see every conversation).
        const taker = conversation.assignee;
        if (viewer.agent && contact?.id === event.data.client_id && taker && taker.id !== viewer.id)
          void stillVisible(event.data.client_id).then((visible) => {
            if (visible) return;
            setContact((open) => (open?.id === event.data.client_id ? null : open));
            setLostTo(taker.name);
          });
        break;
      }
      // The bot's failure is stored: its note (or its refused answer) arrives as a message of its own.
      case 'bot.failed':
        break;
      case 'conversation.handoff':
        setHandoff({ name: shownClientName(queryClient, event.data.client_id) });
        break;
      case 'stream.reset':
        void queryClient.invalidateQueries({ queryKey: chatKeys.all });
        break;
    }
  });

  const showList = !mobile || contact === null;
  const showConversation = !mobile || contact !== null;

  return (
    <div className={`chat-page${mobile ? ' chat-page--mobile' : ''}`}>
      {/* On a phone the list stays mounted while a conversation is open, so going back finds the
          search, the loaded pages and the scroll position as they were. */}
      {lostTo !== null ? (
        <p className="chat-page__notice" role="status">
          {t('chat.inbox.lostTo', { name: lostTo })}
        </p>
      ) : null}
      {handoff !== null ? <HandoffNotice name={handoff.name} onDismiss={() => setHandoff(null)} /> : null}
      <aside className="chat-page__list" hidden={!showList}>
        <ClientList selectedId={contact?.id ?? null} onSelect={select} />
      </aside>
      {showConversation ? (
        <div className="chat-page__conversation">
          {contact ? (
            <Suspense fallback={<div className="chat-page__empty" aria-busy="true" />}>
              <Conversation
                key={contact.id}
                contact={{ ...contact, unread }}
                draft={drafts[contact.id] ?? ''}
                onDraftChange={(text) => setDrafts((all) => ({ ...all, [contact.id]: text }))}
                onBack={() => setContact(null)}
                actions={<ConversationActions clientId={contact.id} phone={contact.phone} />}
                notice={<BotPausedBanner clientId={contact.id} phone={contact.phone} />}
              />
            </Suspense>
          ) : (
            <div className="chat-page__empty">
              <ChatIcon size={40} aria-hidden="true" />
              <p>{t('chat.selectClient')}</p>
            </div>
          )}
        </div>
      ) : null}
    </div>
  );
}
