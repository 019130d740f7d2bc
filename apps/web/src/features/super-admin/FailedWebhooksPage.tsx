import type { WebhookDelivery } from '@hablabot/contract';
import { useMemo, useState } from 'react';
import type { PaginationState } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn, MessageBox, useMessageBox } from '../../components';
import { isApiError } from '../../lib/api-client';
import { intlLocale } from '../../lib/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFailedWebhooks, useReplayWebhook } from './api';
import './super-admin.css';

const SUCCESS_MESSAGE_MS = 4000;
const EMPTY: WebhookDelivery[] = [];
/** Rows a page asks the server for (the API's most is 100). */
const PAGE_SIZES = [25, 50, 100] as const;

/**
 * 'Webhooks fallidos': WhatsApp deliveries whose processing failed after every retry, newest first,
 * each with 'Reintentar' (processed again at once; a new failure keeps it in the list). The server pages
 * them (there may be thousands): the table asks for one page at a time (server mode), and a page emptied
 * by replays gives way to the last one that still has rows (the table keeps its page within the count).
 */
export default function FailedWebhooksPage() {
  const { t, i18n } = useTranslation();
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 50 });
  const query = useFailedWebhooks({ page: pagination.pageIndex + 1, per_page: pagination.pageSize });
  const replay = useReplayWebhook();
  const banner = useMessageBox();
  const [replaying, setReplaying] = useState<number | null>(null);
  useDocumentTitle(t('superAdmin.webhooks.title'));
  const language = i18n.resolvedLanguage ?? i18n.language;

  const onReplay = async (delivery: WebhookDelivery) => {
    setReplaying(delivery.id);
    try {
      const response = await replay.mutateAsync(delivery.id);
      if (response.data.status === 'failed')
        banner.error(
          t('superAdmin.webhooks.feedback.stillFailed', { error: response.data.last_error ?? '' }),
        );
      else banner.success(response.message || t('superAdmin.webhooks.feedback.replayed'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      console.error('Replaying the webhook delivery failed', error);
      const reason = isApiError(error) && error.status > 0 && error.status < 500 ? error.serverMessage : null;
      banner.error(
        reason
          ? `${t('superAdmin.webhooks.feedback.replayError')} ${reason}`
          : t('superAdmin.webhooks.feedback.replayError'),
      );
    } finally {
      setReplaying(null);
    }
  };

  const columns = useMemo<DataTableColumn<WebhookDelivery>[]>(() => {
    const times = new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium', timeStyle: 'short' });
    return [
      {
        id: 'received_at',
        header: t('superAdmin.webhooks.table.received'),
        accessor: 'received_at',
        cell: (d) => times.format(new Date(d.received_at)),
        primary: true,
        sortable: false,
        width: 170,
      },
      {
        id: 'company',
        header: t('superAdmin.webhooks.table.company'),
        sortable: false,
        accessor: (d) => d.company?.name ?? '',
        cell: (d) =>
          d.company?.name ?? <span className="sa-muted">{t('superAdmin.webhooks.unknownCompany')}</span>,
      },
      {
        id: 'summary',
        header: t('superAdmin.webhooks.table.content'),
        sortable: false,
        accessor: (d) => d.summary.messages + d.summary.statuses,
        cell: (d) =>
          t('superAdmin.webhooks.summary', {
            messages: t('superAdmin.webhooks.messages', { count: d.summary.messages }),
            statuses: t('superAdmin.webhooks.statuses', { count: d.summary.statuses }),
          }),
      },
      {
        id: 'attempts',
        header: t('superAdmin.webhooks.table.attempts'),
        sortable: false,
        accessor: 'attempts',
        width: 90,
      },
      {
        id: 'last_error',
        header: t('superAdmin.webhooks.table.error'),
        sortable: false,
        accessor: (d) => d.last_error ?? '',
        cell: (d) => <span className="sa-webhook-error">{d.last_error}</span>,
      },
    ];
  }, [t, language]);

  const page = query.data;
  return (
    <div className="page sa-page">
      <header className="page-header sa-header">
        <div>
          <h1 className="page-header__title">{t('superAdmin.webhooks.title')}</h1>
          <p className="page-header__subtitle">{t('superAdmin.webhooks.subtitle')}</p>
        </div>
      </header>
      <MessageBox {...banner.props} />
      {query.isError && !query.data && (
        <MessageBox type="error" message={t('superAdmin.webhooks.loadError')} />
      )}
      {page && page.pagination.total > 0 && (
        <p className="sa-muted">{t('superAdmin.webhooks.newest', { total: page.pagination.total })}</p>
      )}
      <DataTable<WebhookDelivery>
        mode="server"
        label={t('superAdmin.webhooks.table.label')}
        data={page?.data ?? EMPTY}
        rowCount={page?.pagination.total ?? 0}
        pagination={pagination}
        onPaginationChange={setPagination}
        pageSizes={PAGE_SIZES}
        filterable={false}
        columns={columns}
        getRowId={(d) => d.id}
        minWidth={760}
        rowActionsWidth={120}
        selectable={false}
        emptyMessage={t('superAdmin.webhooks.table.empty')}
        loading={query.isPending && !query.isError}
        rowActions={(d) => (
          <button
            type="button"
            className="hb-btn hb-btn--secondary hb-btn--sm"
            onClick={() => void onReplay(d)}
            disabled={replaying !== null}
            aria-label={t('superAdmin.webhooks.replayLabel', { id: d.id })}
          >
            {replaying === d.id ? t('superAdmin.webhooks.replaying') : t('superAdmin.webhooks.replay')}
          </button>
        )}
      />
    </div>
  );
}
