import type { Client, Segment } from '@hablabot/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  Avatar,
  Button,
  Chip,
  DataTable,
  type DataTableColumn,
  MessageBox,
  type SelectionHelpers,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PencilIcon, TrashIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useClients, useDeleteClients, useDeleteSegment, useSegments } from './api';
import { ClientForm } from './ClientForm';
import { downloadClientsXlsx, EXPORT_COLUMNS, type ExportColumn } from './export';
import { ImportClientsModal } from './ImportClientsModal';
import { ChatBubbleIcon, DownloadIcon, PlusIcon, UploadIcon } from './icons';
import { SegmentForm } from './SegmentForm';
import './clients.css';

/** SPEC.md section 9: the client table's minimum width; narrower screens scroll it sideways. */
export const CLIENTS_TABLE_MIN_WIDTH = 1200;
/** SPEC.md sections 2 and 9: the green banner after a save or delete stays 4 s. */
export const SUCCESS_MESSAGE_MS = 4000;

/** What the chat screen receives in navigation state (SPEC.md section 2, 'Ir al Chat'). */
export interface ChatNavigationState {
  client: { avatar: string | null; id: number; name: string; phone: string };
}

const EMPTY_CLIENTS: Client[] = [];
const EMPTY_SEGMENTS: Segment[] = [];

function fullName(client: Client): string {
  return `${client.name} ${client.last_names}`.trim();
}

/** Client management (SPEC.md section 2, /admin/clients). */
export default function ClientsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const clientsQuery = useClients();
  const segmentsQuery = useSegments();
  const deleteClients = useDeleteClients();
  const deleteSegment = useDeleteSegment();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const [clientModal, setClientModal] = useState<{ client: Client | null } | null>(null);
  const [segmentModal, setSegmentModal] = useState<{ segment: Segment | null } | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  const clients = clientsQuery.data?.clients ?? EMPTY_CLIENTS;
  const segments = segmentsQuery.data?.segments ?? EMPTY_SEGMENTS;
  const title = clientsQuery.data?.title || t('clients.title');
  const subtitle = clientsQuery.data?.subtitle || t('clients.subtitle');
  useDocumentTitle(title);

  // SPEC.md section 8: list-loading failures are only logged.
  useEffect(() => {
    if (clientsQuery.error) console.error('Loading the clients failed', clientsQuery.error);
  }, [clientsQuery.error]);
  useEffect(() => {
    if (segmentsQuery.error) console.error('Loading the segments failed', segmentsQuery.error);
  }, [segmentsQuery.error]);

  const failureText = (error: unknown) =>
    isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
      ? error.serverMessage
      : t('clients.feedback.internalError');

  const removeClients = async (rows: Client[], helpers?: SelectionHelpers) => {
    if (rows.length === 0) return;
    const confirmed = await confirm({
      title: t('clients.confirm.deleteClientsTitle', { count: rows.length }),
      message: t('clients.confirm.deleteClients'),
    });
    if (!confirmed) return;
    try {
      const response = await deleteClients.mutateAsync(rows.map((row) => row.id));
      helpers?.clearSelection();
      banner.success(response.message || t('clients.feedback.deleted'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      console.error('Deleting clients failed', error);
      banner.error(failureText(error));
    }
  };

  const removeSegment = async (segment: Segment) => {
    const confirmed = await confirm({
      title: t('clients.confirm.deleteSegmentTitle', { name: segment.name }),
      message: t('clients.confirm.deleteSegment'),
    });
    if (!confirmed) return;
    try {
      const response = await deleteSegment.mutateAsync(segment.id);
      banner.success(response.message || t('clients.feedback.segmentDeleted'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      console.error('Deleting the segment failed', error);
      banner.error(failureText(error));
    }
  };

  const openChat = useCallback(
    (client: Client) => {
      const state: ChatNavigationState = {
        client: { avatar: client.avatar, id: client.id, name: client.name, phone: client.whatsapp_cellphone },
      };
      navigate('/admin/chat', { state });
    },
    [navigate],
  );

  const exportClients = async () => {
    if (clients.length === 0) {
      banner.show('info', t('clients.feedback.exportEmpty'), SUCCESS_MESSAGE_MS);
      return;
    }
    setExporting(true);
    try {
      const headers = Object.fromEntries(
        EXPORT_COLUMNS.map((column) => [column, t(`clients.export.headers.${column}`)]),
      ) as Record<ExportColumn, string>;
      await downloadClientsXlsx(clients, headers);
    } catch (error) {
      console.error('Exporting clients failed', error);
      banner.error(t('clients.feedback.exportError'));
    } finally {
      setExporting(false);
    }
  };

  const columns = useMemo<DataTableColumn<Client>[]>(
    () => [
      { id: 'id', header: t('clients.table.id'), accessor: 'id', width: 80 },
      {
        id: 'name',
        header: t('clients.table.name'),
        accessor: fullName,
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
        searchValue: (client) => client.segments.map((segment) => segment.name),
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
        searchValue: (client) => [client.whatsapp_cellphone, `+${client.whatsapp_cellphone}`],
        width: 190,
        cell: (client) => (
          <span className="clients-phone" dir="ltr">
            +{client.whatsapp_cellphone}
          </span>
        ),
      },
      {
        id: 'chat',
        header: t('clients.table.chat'),
        width: 150,
        sortable: false,
        searchable: false,
        cell: (client) => (
          <Button
            size="sm"
            variant="secondary"
            className="clients-chat-button"
            onClick={() => openChat(client)}
            aria-label={t('clients.actions.goToChatWith', { name: fullName(client) })}
          >
            <ChatBubbleIcon size={15} />
            {t('clients.actions.goToChat')}
          </Button>
        ),
      },
    ],
    [t, openChat],
  );

  const busy = deleteClients.isPending || deleteSegment.isPending;

  return (
    <div className="page clients-page">
      <header className="page-header clients-header">
        <div className="clients-header__text">
          <h1 className="page-header__title">{title}</h1>
          <p className="page-header__subtitle">{subtitle}</p>
        </div>
        <div className="clients-header__actions">
          <Button variant="primary" onClick={() => setClientModal({ client: null })}>
            <PlusIcon size={16} />
            {t('clients.actions.create')}
          </Button>
          <Button variant="secondary" onClick={exportClients} busy={exporting}>
            <DownloadIcon size={16} />
            {t('clients.actions.export')}
          </Button>
          <Button variant="secondary" onClick={() => setImportOpen(true)}>
            <UploadIcon size={16} />
            {t('clients.actions.import')}
          </Button>
        </div>
      </header>

      <div className="clients-banner">
        <MessageBox {...banner.props} />
      </div>

      <section className="clients-segments" aria-labelledby="clients-segments-heading">
        <h2 id="clients-segments-heading" className="clients-segments__heading">
          {t('clients.segments.heading')}
        </h2>
        <ul className="clients-segments__list">
          {segments.map((segment) => (
            <li key={segment.id}>
              <Chip
                label={segment.name}
                color={segment.color}
                title={t('clients.segments.count', { count: segment.clients_count ?? 0 })}
                onClick={() => setSegmentModal({ segment })}
                onRemove={() => removeSegment(segment)}
                removeLabel={t('clients.segments.delete', { name: segment.name })}
                disabled={busy}
              />
            </li>
          ))}
          <li>
            <button
              type="button"
              className="clients-segments__add"
              onClick={() => setSegmentModal({ segment: null })}
            >
              <PlusIcon size={14} />
              {t('clients.segments.add')}
            </button>
          </li>
        </ul>
        {segmentsQuery.isSuccess && segments.length === 0 && (
          <p className="clients-segments__empty">{t('clients.segments.empty')}</p>
        )}
      </section>

      <DataTable<Client>
        className="clients-table"
        label={t('clients.table.label')}
        data={clients}
        columns={columns}
        getRowId={(client) => client.id}
        minWidth={CLIENTS_TABLE_MIN_WIDTH}
        filterPlaceholder={t('clients.table.filter')}
        emptyMessage={t('clients.table.empty')}
        loading={(clientsQuery.isPending && !clientsQuery.isError) || deleteClients.isPending}
        onEdit={(client) => setClientModal({ client })}
        onDelete={(rows, helpers) => removeClients(rows, helpers)}
        rowActions={(client) => (
          <>
            <button
              type="button"
              className="hb-icon-btn"
              onClick={() => setClientModal({ client })}
              aria-label={t('clients.actions.editClient', { name: fullName(client) })}
              title={t('clients.actions.editClient', { name: fullName(client) })}
            >
              <PencilIcon size={16} />
            </button>
            <button
              type="button"
              className="hb-icon-btn clients-danger-icon"
              onClick={() => removeClients([client])}
              disabled={busy}
              aria-label={t('clients.actions.deleteClient', { name: fullName(client) })}
              title={t('clients.actions.deleteClient', { name: fullName(client) })}
            >
              <TrashIcon size={16} />
            </button>
          </>
        )}
      />

      {clientModal && (
        <ClientForm
          key={`client-${clientModal.client?.id ?? 'new'}`}
          client={clientModal.client}
          segments={segments}
          onClose={() => setClientModal(null)}
          onCreateSegment={() => setSegmentModal({ segment: null })}
          onSaved={(message) => {
            setClientModal(null);
            banner.success(message, SUCCESS_MESSAGE_MS);
          }}
        />
      )}
      {segmentModal && (
        <SegmentForm
          key={`segment-${segmentModal.segment?.id ?? 'new'}`}
          segment={segmentModal.segment}
          onClose={() => setSegmentModal(null)}
        />
      )}
      {importOpen && <ImportClientsModal onClose={() => setImportOpen(false)} />}
      {confirmDialog}
    </div>
  );
}
