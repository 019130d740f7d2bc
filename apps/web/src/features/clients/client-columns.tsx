import type { Client } from '@hablabot/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, Button, Chip, type DataTableColumn } from '../../components';
import { ChatBubbleIcon } from '../../components/lib/icons';

// The clients table's columns: the client with their avatar, segments as chips, the number (and an
// opt-out), and 'Ir al Chat' pinned beside the row's actions.

/** Pixel widths of the pinned columns (the pinned offsets are computed from them). */
const CHAT_COLUMN_WIDTH = 150;
export const ACTIONS_COLUMN_WIDTH = 104;

export function fullName(client: Client): string {
  return `${client.name} ${client.last_names}`.trim();
}

/** The columns, with 'Ir al Chat' opening the client's conversation. */
export function useClientColumns(openChat: (client: Client) => void): DataTableColumn<Client>[] {
  const { t } = useTranslation();
  return useMemo<DataTableColumn<Client>[]>(
    () => [
      { id: 'id', header: t('clients.table.id'), accessor: 'id', width: 80 },
      {
        id: 'name',
        header: t('clients.table.name'),
        accessor: fullName,
        primary: true,
        cell: (client) => (
          <span className="clients-name">
            <Avatar name={fullName(client)} src={client.avatar} size={30} decorative />
            <span className="clients-name__text">{fullName(client)}</span>
          </span>
        ),
      },
      {
        id: 'segments',
        header: t('clients.table.segment'),
        accessor: (client) => client.segments.map((segment) => segment.name).join(', '),
        // The server does not sort by segment: no sort button on this column.
        sortable: false,
        width: 320,
        cell: (client) =>
          client.segments.length === 0 ? (
            <span className="clients-muted" aria-hidden="true">
              —
            </span>
          ) : (
            <span className="clients-chips">
              {client.segments.map((segment) => (
                <Chip key={segment.id} label={segment.name} color={segment.color} size="sm" />
              ))}
            </span>
          ),
      },
      {
        id: 'whatsapp',
        header: t('clients.table.whatsapp'),
        accessor: 'whatsapp_cellphone',
        width: 190,
        primary: true,
        cell: (client) => (
          <span className="clients-phone-cell">
            <span className="clients-phone" dir="ltr">
              +{client.whatsapp_cellphone}
            </span>
            {client.opted_out_at ? (
              <span className="clients-opted-out" title={t('clients.consent.optedOutHint')}>
                {t('clients.consent.optedOut')}
              </span>
            ) : null}
          </span>
        ),
      },
      {
        id: 'chat',
        header: t('clients.table.chat'),
        width: CHAT_COLUMN_WIDTH,
        sortable: false,
        searchable: false,
        // Pinned beside the actions: 'Ir al Chat' stays in reach while the wide table scrolls.
        sticky: true,
        cell: (client) => (
          <Button
            size="sm"
            variant="secondary"
            className="clients-chat-button"
            onClick={() => openChat(client)}
            aria-label={t('clients.actions.goToChatWith', { name: fullName(client) })}
          >
            <ChatBubbleIcon size={15} />
            <span className="clients-chat-button__text">{t('clients.actions.goToChat')}</span>
          </Button>
        ),
      },
    ],
    [t, openChat],
  );
}
