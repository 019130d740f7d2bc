import {
  MASS_RECIPIENT_STATUSES,
  type MassMessage,
  type MassRecipient,
  type MassRecipientStatus,
} from '@hablabot/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  DataTable,
  type DataTableColumn,
  DEFAULT_PAGE_SIZE,
  MessageBox,
  Modal,
  type PaginationState,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { DownloadIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { downloadReport, type RecipientsQuery, useRecipients, useResend } from './api';
import { SendProgress, StatusBadge } from './progress';
import { formatDateTime } from './schedule';
import { StatusFilter } from './StatusFilter';

const EMPTY: MassRecipient[] = [];

export interface SendReportProps {
  send: MassMessage;
  onClose: () => void;
}

/** A send's per-recipient report: filter by state, search, Meta's error text, export as CSV. */
export function SendReport({ send, onClose }: SendReportProps) {
  const { t, i18n } = useTranslation();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const [status, setStatus] = useState<MassRecipientStatus | ''>('');
  const [search, setSearch] = useState('');
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: DEFAULT_PAGE_SIZE,
  });
  const [exporting, setExporting] = useState(false);
  const query: RecipientsQuery = {
    page: pagination.pageIndex + 1,
    per_page: pagination.pageSize,
    search,
    status,
  };
  const recipients = useRecipients(send.id, query);
  const resend = useResend();
  const rows = recipients.data?.data.data ?? EMPTY;
  const total = recipients.data?.data.total ?? 0;

  const columns = useMemo<DataTableColumn<MassRecipient>[]>(
    () => [
      {
        id: 'client',
        header: t('massMessages.report.client'),
        accessor: (row) => `${row.name} ${row.last_names}`.trim(),
        sortable: false,
        // Phones show each recipient as a card led by the client and the state, the report's point.
        primary: true,
      },
      {
        id: 'phone',
        header: t('massMessages.report.phone'),
        accessor: 'phone',
        sortable: false,
        width: 170,
        cell: (row) => <span dir="ltr">{row.phone ? `+${row.phone}` : '—'}</span>,
      },
      {
        id: 'status',
        header: t('massMessages.report.status'),
        accessor: 'status',
        sortable: false,
        width: 130,
        primary: true,
        cell: (row) => <StatusBadge status={row.status} />,
      },
      {
        id: 'error',
        header: t('massMessages.report.error'),
        accessor: (row) => row.error_message ?? '',
        sortable: false,
        cell: (row) =>
          // Meta's marketing cap (131049) with a retry a day later: 'Reintento programado' and when.
          row.retry_at ? (
            <span className="mm-report__error">
              {t('massMessages.limits.retryAt', { at: formatDateTime(row.retry_at, i18n.language) })}
            </span>
          ) : row.error ? (
            // WhatsApp's refusal explained: what happened and what to do, then its code and title.
            <span className="mm-report__error">
              <span className="mm-report__explanation">{row.error.explanation}</span>
              <span className="mm-report__code">
                {row.error.code === null ? row.error.title : `(${row.error.code}) ${row.error.title}`}
              </span>
            </span>
          ) : row.error_message ? (
            <span className="mm-report__error">
              {row.error_code ? `(${row.error_code}) ` : ''}
              {row.error_message}
            </span>
          ) : (
            <span className="mm-muted">—</span>
          ),
      },
      {
        id: 'updated',
        header: t('massMessages.report.updated'),
        accessor: 'updated_at',
        sortable: false,
        width: 180,
        cell: (row) => formatDateTime(row.updated_at, i18n.language),
      },
    ],
    [t, i18n.language],
  );

  const exportReport = async () => {
    setExporting(true);
    try {
      await downloadReport(send.id, status);
    } catch (error) {
      console.error('Exporting the report failed', error);
      banner.error(t('massMessages.report.exportError'));
    } finally {
      setExporting(false);
    }
  };

  /** Sends again, after a warning: an unknown recipient may have had the message already. */
  const resendTo = async (recipient?: MassRecipient) => {
    const ok = await confirm({
      message: t('massMessages.report.confirmResend'),
      tone: 'primary',
      confirmLabel: t('massMessages.report.resend'),
    });
    if (!ok) return;
    try {
      const response = await resend.mutateAsync({
        id: send.id,
        body: recipient
          ? { recipient_ids: [recipient.id], statuses: ['unknown', 'failed'] }
          : { statuses: ['unknown'] },
      });
      banner.success(response.message, 4000);
    } catch (error) {
      banner.error(
        isApiError(error) && error.serverMessage
          ? error.serverMessage
          : t('massMessages.feedback.actionError'),
      );
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="xl"
      title={t('massMessages.report.title', { name: send.name })}
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t('massMessages.report.close')}
        </Button>
      }
    >
      <div className="mm-report">
        <MessageBox {...banner.props} />
        <div className="mm-report__summary">
          <StatusBadge status={send.status} />
          <SendProgress send={send} />
          {send.waiting_limit_until && (
            <span className="mm-report__waiting" role="status">
              {t('massMessages.limits.waiting', {
                at: formatDateTime(send.waiting_limit_until, i18n.language),
              })}
            </span>
          )}
        </div>
        <DataTable<MassRecipient>
          mode="server"
          label={t('massMessages.report.label')}
          data={rows}
          rowCount={total}
          columns={columns}
          getRowId={(row) => row.id}
          selectable={false}
          filter={search}
          onFilterChange={setSearch}
          filterPlaceholder={t('massMessages.report.filter')}
          pagination={pagination}
          onPaginationChange={setPagination}
          loading={recipients.isPending && !recipients.isError}
          emptyMessage={t('massMessages.report.empty')}
          minWidth={760}
          rowActionsWidth={96}
          rowActions={(row) =>
            (row.status === 'unknown' || row.status === 'failed') && send.status !== 'cancelled' ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => resendTo(row)}
                disabled={resend.isPending}
                aria-label={t('massMessages.report.resendOf', {
                  name: `${row.name} ${row.last_names}`.trim(),
                })}
              >
                {t('massMessages.report.resend')}
              </Button>
            ) : null
          }
          toolbar={
            <div className="mm-toolbar">
              <StatusFilter
                label={t('massMessages.report.statusFilter')}
                statuses={MASS_RECIPIENT_STATUSES}
                value={status}
                onChange={(next) => {
                  setStatus(next);
                  setPagination((current) => ({ ...current, pageIndex: 0 }));
                }}
              />
              <Button size="sm" variant="secondary" onClick={exportReport} busy={exporting}>
                <DownloadIcon size={15} />
                {t('massMessages.report.export')}
              </Button>
              {send.counts.unknown > 0 && (
                <Button size="sm" variant="secondary" onClick={() => resendTo()} busy={resend.isPending}>
                  {t('massMessages.report.resendUnknown')}
                </Button>
              )}
            </div>
          }
        />
      </div>
      {confirmDialog}
    </Modal>
  );
}
