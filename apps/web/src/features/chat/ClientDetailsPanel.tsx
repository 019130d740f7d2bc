import type { Conversation } from '@hablabot/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '../../components';
import { dateFormat } from '../../lib/i18n';
import { isAgentSession, useSession } from '../../lib/session';
import type { ClientsNavigationState } from '../clients/ClientsPage';
import { type MessagePages, chatKeys } from './api';
import { useChatClient } from './consent';
import type { ChatContact } from './Conversation';

export interface ClientDetailsPanelProps {
  open: boolean;
  onClose: () => void;
  contact: ChatContact;
  /** The open conversation (assignee, status), when known. */
  conversation: Conversation | null;
}

/**
 * 'Detalles del cliente': the client as GET /admin/client/{id} has them, with the conversation's assignee,
 * status and size. A side panel on a computer, a sheet from the bottom on a phone (chat.css); a dialog
 * either way (focus kept inside, Escape closes).
 */
export function ClientDetailsPanel({ open, onClose, contact, conversation }: ClientDetailsPanelProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('chat.details.title')} className="chat-details">
      <DetailsBody contact={contact} conversation={conversation} />
    </Modal>
  );
}

/** Mounted only while the panel is open: the client is read on opening. */
function DetailsBody({ contact, conversation }: Pick<ClientDetailsPanelProps, 'contact' | 'conversation'>) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const agent = isAgentSession(useSession());
  const language = i18n.resolvedLanguage ?? i18n.language;
  const details = useChatClient(contact.id);
  const history = queryClient.getQueryData<MessagePages>(chatKeys.conversation(contact.id));
  const messageCount = history?.pages[0]?.pagination.total;
  const date = (iso: string | null | undefined) =>
    iso
      ? dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
      : t('chat.details.none');

  if (details.isPending) return <p role="status">{t('chat.details.loading')}</p>;
  if (details.isError) return <p role="alert">{t('chat.details.loadError')}</p>;
  const { client } = details.data;
  const name = `${client.name} ${client.last_names}`.trim();
  const editState: ClientsNavigationState = { editClient: client };
  const rows: [string, ReactNode][] = [
    [t('chat.details.name'), name],
    [t('chat.details.phone'), `+${client.whatsapp_cellphone}`],
    [t('chat.details.email'), client.email || t('chat.details.none')],
    [
      t('chat.details.segments'),
      client.segments.length > 0 ? client.segments.map((s) => s.name).join(', ') : t('chat.details.none'),
    ],
    [t('chat.details.projects'), client.projects || t('chat.details.none')],
    [
      t('chat.details.botMode'),
      (conversation?.mode_bot ?? client.mode_bot) === 1
        ? t('chat.details.botActive')
        : t('chat.details.botPaused'),
    ],
    [
      t('chat.consent.label'),
      client.opted_out_at
        ? t('chat.consent.since', { date: date(client.opted_out_at) })
        : t('chat.consent.subscribed'),
    ],
    [t('chat.details.assignee'), conversation?.assignee?.name ?? t('chat.details.unassigned')],
    [
      t('chat.details.status'),
      conversation ? t(`chat.details.statuses.${conversation.status}`) : t('chat.details.none'),
    ],
    [t('chat.details.messages'), messageCount === undefined ? '…' : String(messageCount)],
    [t('chat.details.firstContact'), date(client.created_at)],
    [t('chat.details.lastContact'), date(conversation?.last_message_date ?? client.last_message_date)],
  ];
  return (
    <div className="chat-details__body">
      <dl className="chat-details__list">
        {rows.map(([label, value]) => (
          <div key={label} className="chat-details__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {/* Agents do not manage clients (the clients screen is the admins'). */}
      {agent ? null : (
        <Link className="chat-details__edit" to="/admin/clients" state={editState}>
          {t('chat.details.edit')}
        </Link>
      )}
    </div>
  );
}
