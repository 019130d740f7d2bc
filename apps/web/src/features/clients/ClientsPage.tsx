import type { Client, Segment } from '@hablabot/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import {
  Button,
  Chip,
  ChipBar,
  DataTable,
  DEFAULT_PAGE_SIZE,
  formatNumber,
  MessageBox,
  type PaginationState,
  type SelectionHelpers,
  type SortingState,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PencilIcon, TrashIcon } from '../../components/lib/icons';
import { cx } from '../../components/lib/text';
import { isApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useClientsPage, useDeleteClients, useDeleteSegment, useSegments } from './api';
import { ClientForm } from './ClientForm';
import { ACTIONS_COLUMN_WIDTH, fullName, useClientColumns } from './client-columns';
import { clientsPageQuery } from './clients-query';
import { ImportClientsModal } from './ImportClientsModal';
import { SUCCESS_MESSAGE_MS, useClientsExport } from './use-clients-export';
import { DownloadIcon, PlusIcon, UploadIcon } from '../../components/lib/icons';
import { SegmentForm } from './SegmentForm';
import './clients.css';

/**
 * The client table is never narrower than this; narrower screens scroll it sideways, with the chat
 * and action columns pinned to the right edge so they stay in reach.
 */
export const CLIENTS_TABLE_MIN_WIDTH = 1200;

export { clientsPageQuery, serverSearch } from './clients-query';
export { SUCCESS_MESSAGE_MS } from './use-clients-export';

/** What the chat screen receives in navigation state when 'Ir al Chat' opens it. */
export interface ChatNavigationState {
  client: { avatar: string | null; id: number; name: string; phone: string };
}

/** What the clients screen receives when another screen (the chat's client details) opens a client's edit. */
export interface ClientsNavigationState {
  editClient: Client;
}

const EMPTY_CLIENTS: Client[] = [];
const EMPTY_SEGMENTS: Segment[] = [];

/**
 * Client management (/admin/clients): segments, and the clients table, which the server searches,
 * sorts and pages (one page in memory, however many clients the company has).
 */
export default function ClientsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [filter, setFilter] = useState('');
  const [sorting, setSorting] = useState<SortingState>([]);
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: DEFAULT_PAGE_SIZE,
  });
  const pageQuery = useMemo(
    () => clientsPageQuery(filter, sorting, pagination),
    [filter, sorting, pagination],
  );
  const clientsQuery = useClientsPage(pageQuery);
  const segmentsQuery = useSegments();
  const deleteClients = useDeleteClients();
  const deleteSegment = useDeleteSegment();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const location = useLocation();
  // Opened from elsewhere to edit one client: its form is open from the start.
  const [clientModal, setClientModal] = useState<{ client: Client | null } | null>(() => {
    const editClient = (location.state as Partial<ClientsNavigationState> | null)?.editClient;
    return editClient ? { client: editClient } : null;
  });
  const [segmentModal, setSegmentModal] = useState<{ segment: Segment | null } | null>(null);
  const [importOpen, setImportOpen] = useState(false);

  const clients = clientsQuery.data?.clients ?? EMPTY_CLIENTS;
  const serverPagination = clientsQuery.data?.pagination;
  const rowCount = serverPagination?.total ?? clients.length;
  const segments = segmentsQuery.data?.segments ?? EMPTY_SEGMENTS;
  const title = clientsQuery.data?.title || t('clients.title');
  const subtitle = clientsQuery.data?.subtitle || t('clients.subtitle');
  useDocumentTitle(title);

  // A list that fails to load is only logged: the page stays usable with its own texts.
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

  const { exporting, exportProgress, exportClients } = useClientsExport(banner, {
    empty: clientsQuery.isSuccess && !pageQuery.search && rowCount === 0,
  });
  const columns = useClientColumns(openChat);

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
            {exportProgress
              ? t('clients.actions.exportProgress', {
                  loaded: formatNumber(exportProgress.loaded, i18n.language),
                  total: formatNumber(exportProgress.total, i18n.language),
                })
              : t('clients.actions.export')}
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

      <ChipBar
        headingId="clients-segments-heading"
        heading={t('clients.segments.heading')}
        addLabel={t('clients.segments.add')}
        onAdd={() => setSegmentModal({ segment: null })}
        emptyText={segmentsQuery.isSuccess && segments.length === 0 && t('clients.segments.empty')}
      >
        {segments.map((segment) => (
          <Chip
            key={segment.id}
            label={segment.name}
            color={segment.color}
            title={t('clients.segments.count', { count: segment.clients_count ?? 0 })}
            onClick={() => setSegmentModal({ segment })}
            onRemove={() => removeSegment(segment)}
            removeLabel={t('clients.segments.delete', { name: segment.name })}
            disabled={busy}
          />
        ))}
      </ChipBar>

      <DataTable<Client>
        mode="server"
        className={cx('clients-table', clientsQuery.isPlaceholderData && 'clients-table--stale')}
        label={t('clients.table.label')}
        data={clients}
        rowCount={rowCount}
        pageCount={serverPagination?.last_page}
        filter={filter}
        onFilterChange={setFilter}
        sorting={sorting}
        onSortingChange={setSorting}
        pagination={pagination}
        onPaginationChange={setPagination}
        columns={columns}
        getRowId={(client) => client.id}
        minWidth={CLIENTS_TABLE_MIN_WIDTH}
        rowActionsWidth={ACTIONS_COLUMN_WIDTH}
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
