import {
  type ClientList,
  MASS_MESSAGE_STATUSES,
  type MassMessage,
  type MassMessageStatus,
} from '@hablabot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  Chip,
  ChipBar,
  DataTable,
  type DataTableColumn,
  DEFAULT_PAGE_SIZE,
  formatNumber,
  MessageBox,
  type PaginationState,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PauseIcon, PlayIcon, CloseIcon, EyeIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useServerEvents } from '../../lib/use-server-events';
import { useSegments } from '../clients/api';
import {
  type HistoryQuery,
  type MassAction,
  massKeys,
  patchHistoryRow,
  useClientLists,
  useDeleteClientList,
  useHistory,
  useMassAction,
  useTemplates,
} from './api';
import { ClientListForm } from './ClientListForm';
import { MassMessageForm } from './MassMessageForm';
import { PaceSetting } from './PaceSetting';
import { SendProgress, StatusBadge } from './progress';
import { formatDateTime } from './schedule';
import { SendReport } from './SendReport';
import './mass-messages.css';
import { StatusFilter } from './StatusFilter';

/** Success banners stay 4 s. */
export const BANNER_MS = 4000;
/** The open report reloads at most this often while its send progresses. */
export const REPORT_REFRESH_MS = 2000;

const EMPTY_LISTS: ClientList[] = [];
const EMPTY_ROWS: MassMessage[] = [];

const ACTIVE: readonly MassMessageStatus[] = ['scheduled', 'queued', 'sending'];

/**
 * Minutes a scheduled send started after its time (the server was down then, say); 0 when on time. A
 * start within a minute counts as on time.
 */
export function lateMinutes(send: Pick<MassMessage, 'scheduled_at' | 'started_at'>): number {
  if (!send.scheduled_at || !send.started_at) return 0;
  const late = new Date(send.started_at).getTime() - new Date(send.scheduled_at).getTime();
  return late >= 60_000 ? Math.round(late / 60_000) : 0;
}

/** Mass messages: client lists, a new send, and every send with its live progress. */
export default function MassMessagesPage() {
  const { t, i18n } = useTranslation();
  const title = t('massMessages.title');
  useDocumentTitle(title);
  const queryClient = useQueryClient();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const lists = useClientLists();
  const templates = useTemplates();
  const segments = useSegments();
  const deleteList = useDeleteClientList();
  const action = useMassAction();
  const [listModal, setListModal] = useState<{ list: ClientList | null } | null>(null);
  const [reportSend, setReportSend] = useState<MassMessage | null>(null);
  const reportId = reportSend?.id ?? null;
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<MassMessageStatus | ''>('');
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: DEFAULT_PAGE_SIZE,
  });
  const historyQuery: HistoryQuery = {
    page: pagination.pageIndex + 1,
    per_page: pagination.pageSize,
    search,
    status,
  };
  const history = useHistory(historyQuery);
  const rows = history.data?.data.data ?? EMPTY_ROWS;
  const allLists = useMemo(() => lists.data?.pages.flatMap((page) => page.data) ?? EMPTY_LISTS, [lists.data]);
  const listsTotal = lists.data?.pages.at(-1)?.pagination.total ?? 0;
  const reportRefreshed = useRef(0);

  // A list that fails to load is only logged: the page stays usable with what it has.
  useEffect(() => {
    for (const [what, error] of [
      ['client lists', lists.error],
      ['templates', templates.error],
      ['send history', history.error],
    ] as const) {
      if (error) console.error(`Loading the ${what} failed`, error);
    }
  }, [lists.error, templates.error, history.error]);

  const connection = useServerEvents((event) => {
    if (event.type === 'stream.reset') {
      void queryClient.invalidateQueries({ queryKey: massKeys.history });
      return;
    }
    if (event.type !== 'mass_message.progress') return;
    const { mass_message_id: id, status: next, counts } = event.data;
    if (!patchHistoryRow(queryClient, id, { status: next, counts })) {
      void queryClient.invalidateQueries({ queryKey: massKeys.history });
    }
    if (id === reportId) {
      const now = Date.now();
      if (now - reportRefreshed.current >= REPORT_REFRESH_MS || next === 'completed') {
        reportRefreshed.current = now;
        void queryClient.invalidateQueries({ queryKey: massKeys.recipients(id) });
      }
    }
  });

  const removeList = async (list: ClientList) => {
    const ok = await confirm({
      title: t('massMessages.lists.confirmTitle', { name: list.name }),
      message: t('massMessages.lists.confirmDelete'),
    });
    if (!ok) return;
    try {
      await deleteList.mutateAsync(list.id);
      banner.success(t('massMessages.feedback.listOk'), BANNER_MS);
    } catch (error) {
      console.error('Deleting the client list failed', error);
      banner.error(
        isApiError(error) && error.status > 0 && error.status < 500
          ? t('massMessages.feedback.listError')
          : t('massMessages.feedback.listInternalError'),
      );
    }
  };

  const runAction = async (send: MassMessage, kind: MassAction) => {
    if (kind === 'cancel') {
      const ok = await confirm({
        title: t('massMessages.history.confirmCancelTitle', { name: send.name }),
        message: t('massMessages.history.confirmCancel'),
        confirmLabel: t('massMessages.history.confirmCancelOk'),
      });
      if (!ok) return;
    }
    try {
      const response = await action.mutateAsync({ id: send.id, action: kind });
      banner.success(response.message, BANNER_MS);
    } catch (error) {
      banner.error(
        isApiError(error) && error.status > 0 && error.serverMessage
          ? error.serverMessage
          : t('massMessages.feedback.actionError'),
      );
    }
  };

  const columns = useMemo<DataTableColumn<MassMessage>[]>(
    () => [
      {
        id: 'name',
        header: t('massMessages.history.name'),
        accessor: 'name',
        sortable: false,
        // Phones show each send as a card led by its name and its state.
        primary: true,
      },
      { id: 'list', header: t('massMessages.history.list'), accessor: 'list_name', sortable: false },
      {
        id: 'date',
        header: t('massMessages.history.date'),
        accessor: 'created_at',
        sortable: false,
        width: 180,
        cell: (send) => (
          <span className="mm-date">
            <span>{formatDateTime(send.created_at, i18n.language)}</span>
            {send.scheduled_at && (
              <span className="mm-muted">
                {t('massMessages.history.scheduledFor', {
                  date: formatDateTime(send.scheduled_at, i18n.language),
                })}
              </span>
            )}
            {lateMinutes(send) > 0 && (
              <span className="mm-late">
                {t('massMessages.history.startedLate', { count: lateMinutes(send) })}
              </span>
            )}
          </span>
        ),
      },
      {
        id: 'status',
        header: t('massMessages.history.status'),
        accessor: 'status',
        sortable: false,
        width: 130,
        primary: true,
        cell: (send) => <StatusBadge status={send.status} />,
      },
      {
        id: 'progress',
        header: t('massMessages.history.progress'),
        sortable: false,
        searchable: false,
        width: 250,
        cell: (send) => <SendProgress send={send} />,
      },
    ],
    [t, i18n.language],
  );

  // The open report follows the row's live state while the row is on the page.
  const report = reportSend ? (rows.find((row) => row.id === reportSend.id) ?? reportSend) : null;

  return (
    <div className="page mm-page">
      <header className="page-header">
        <h1 className="page-header__title">{title}</h1>
        <p className="page-header__subtitle">{t('massMessages.subtitle')}</p>
      </header>

      <div className="mm-banner">
        <MessageBox {...banner.props} />
      </div>

      <ChipBar
        headingId="mm-lists-heading"
        heading={t('massMessages.lists.heading')}
        addLabel={t('massMessages.lists.add')}
        onAdd={() => setListModal({ list: null })}
        emptyText={lists.isSuccess && allLists.length === 0 && t('massMessages.lists.empty')}
      >
        {allLists.map((list) => (
          <Chip
            key={list.id}
            label={`${list.name} · ${formatNumber(list.clients_count, i18n.language)}`}
            title={t('massMessages.lists.count', {
              count: list.clients_count,
              formatted: formatNumber(list.clients_count, i18n.language),
            })}
            onClick={() => setListModal({ list })}
            onRemove={() => removeList(list)}
            removeLabel={t('massMessages.lists.delete', { name: list.name })}
            disabled={deleteList.isPending}
          />
        ))}
        {lists.hasNextPage ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => void lists.fetchNextPage()}
            disabled={lists.isFetchingNextPage}
          >
            {t('massMessages.lists.more', {
              shown: formatNumber(allLists.length, i18n.language),
              total: formatNumber(listsTotal, i18n.language),
            })}
          </Button>
        ) : null}
      </ChipBar>

      <MassMessageForm
        templates={templates.data?.data ?? []}
        lists={allLists}
        hasMoreLists={Boolean(lists.hasNextPage)}
      />

      <section className="mm-card mm-history" aria-labelledby="mm-history-heading">
        <div className="mm-history__head">
          <h2 id="mm-history-heading" className="mm-card__heading">
            {t('massMessages.history.heading')}
          </h2>
          <span className={`mm-live mm-live--${connection}`}>
            {connection === 'open'
              ? t('massMessages.history.live')
              : connection === 'reconnecting'
                ? t('massMessages.history.reconnecting')
                : ''}
          </span>
        </div>
        <DataTable<MassMessage>
          mode="server"
          label={t('massMessages.history.label')}
          data={rows}
          rowCount={history.data?.data.total ?? 0}
          columns={columns}
          getRowId={(send) => send.id}
          selectable={false}
          filter={search}
          onFilterChange={setSearch}
          filterPlaceholder={t('massMessages.history.filter')}
          pagination={pagination}
          onPaginationChange={setPagination}
          loading={history.isPending && !history.isError}
          emptyMessage={t('massMessages.history.empty')}
          className="mm-history-table"
          minWidth={860}
          rowActionsWidth={124}
          toolbar={
            <div className="mm-toolbar">
              <StatusFilter
                label={t('massMessages.history.status')}
                statuses={MASS_MESSAGE_STATUSES}
                value={status}
                onChange={(next) => {
                  setStatus(next);
                  setPagination((current) => ({ ...current, pageIndex: 0 }));
                }}
              />
            </div>
          }
          rowActions={(send) => (
            <>
              <button
                type="button"
                className="hb-icon-btn"
                onClick={() => setReportSend(send)}
                aria-label={t('massMessages.history.report', { name: send.name })}
                title={t('massMessages.history.report', { name: send.name })}
              >
                <EyeIcon size={16} />
              </button>
              {ACTIVE.includes(send.status) && (
                <button
                  type="button"
                  className="hb-icon-btn"
                  onClick={() => runAction(send, 'pause')}
                  disabled={action.isPending}
                  aria-label={t('massMessages.history.pause', { name: send.name })}
                  title={t('massMessages.history.pause', { name: send.name })}
                >
                  <PauseIcon size={16} />
                </button>
              )}
              {send.status === 'paused' && (
                <button
                  type="button"
                  className="hb-icon-btn"
                  onClick={() => runAction(send, 'resume')}
                  disabled={action.isPending}
                  aria-label={t('massMessages.history.resume', { name: send.name })}
                  title={t('massMessages.history.resume', { name: send.name })}
                >
                  <PlayIcon size={16} />
                </button>
              )}
              {(ACTIVE.includes(send.status) || send.status === 'paused') && (
                <button
                  type="button"
                  className="hb-icon-btn mm-danger-icon"
                  onClick={() => runAction(send, 'cancel')}
                  disabled={action.isPending}
                  aria-label={t('massMessages.history.cancel', { name: send.name })}
                  title={t('massMessages.history.cancel', { name: send.name })}
                >
                  <CloseIcon size={16} />
                </button>
              )}
            </>
          )}
        />
        <PaceSetting />
      </section>

      {listModal && (
        <ClientListForm
          key={listModal.list?.id ?? 'new'}
          list={listModal.list}
          segments={segments.data?.segments ?? []}
          onClose={() => setListModal(null)}
          onSaved={(message) => {
            setListModal(null);
            banner.success(message, BANNER_MS);
          }}
        />
      )}
      {report && <SendReport send={report} onClose={() => setReportSend(null)} />}
      {confirmDialog}
    </div>
  );
}
