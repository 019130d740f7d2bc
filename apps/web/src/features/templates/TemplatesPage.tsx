import type { MessageTemplate } from '@hablabot/contract';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  DataTable,
  type DataTableColumn,
  MessageBox,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PlusIcon, TrashIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { intlLocale } from '../../lib/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useDeleteTemplate, useLiveTemplates, useSyncTemplateList, useTemplateList } from './api';
import { TemplateForm } from './TemplateForm';
import './templates.css';

const FEEDBACK_MS = 4000;
const EMPTY: MessageTemplate[] = [];
/** The statuses the filter offers (a template may hold others Meta gives; 'Todos' shows them). */
export const FILTER_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;

/** A status's words, or the status as Meta gave it when it is not one we name. */
function useStatusText() {
  const { t } = useTranslation();
  return useCallback((status: string) => t(`templates.status.${status}`, { defaultValue: status }), [t]);
}

/**
 * 'Plantillas' (/admin/templates, admins only): the company's WhatsApp templates — name, language,
 * category, status (with Meta's reason when rejected), quality and last update — searched by any of
 * them and filtered by status. 'Nueva plantilla' writes one and sends it to Meta; Meta's verdict arrives
 * live; 'Sincronizar Plantillas' reads the list again from WhatsApp; a template is deleted on Meta too.
 */
export default function TemplatesPage() {
  const { t, i18n } = useTranslation();
  const statusText = useStatusText();
  useDocumentTitle(t('templates.title'));
  useLiveTemplates();
  const filterId = useId();
  const templates = useTemplateList();
  const remove = useDeleteTemplate();
  const sync = useSyncTemplateList();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const [status, setStatus] = useState('');
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    if (templates.error) console.error('Loading the templates failed', templates.error);
  }, [templates.error]);

  const date = useMemo(
    () => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );
  const columns = useMemo<DataTableColumn<MessageTemplate>[]>(
    () => [
      { id: 'name', header: t('templates.table.name'), accessor: 'name', primary: true },
      { id: 'language', header: t('templates.table.language'), accessor: 'language', width: 110 },
      {
        id: 'category',
        header: t('templates.table.category'),
        accessor: (x) => t(`templates.categories.${x.category}`, { defaultValue: x.category }),
        width: 140,
      },
      {
        id: 'status',
        header: t('templates.table.status'),
        accessor: (x) => statusText(x.status),
        searchValue: (x) => [statusText(x.status), x.rejected_reason ?? ''],
        cell: (x) => (
          <span className="tpl-status">
            <span className={`tpl-status__badge tpl-status__badge--${x.status.toLowerCase()}`}>
              {statusText(x.status)}
            </span>
            {x.rejected_reason && (
              <span className="tpl-status__reason">
                {t('templates.table.reason', {
                  reason: t(`templates.reasons.${x.rejected_reason}`, { defaultValue: x.rejected_reason }),
                })}
              </span>
            )}
          </span>
        ),
      },
      {
        id: 'quality',
        header: t('templates.table.quality'),
        accessor: (x) => (x.quality ? t(`templates.quality.${x.quality}`, { defaultValue: x.quality }) : '—'),
        width: 120,
      },
      {
        id: 'updated_at',
        header: t('templates.table.updated'),
        accessor: (x) => (x.updated_at ? date.format(new Date(x.updated_at)) : '—'),
        sortValue: (x) => x.updated_at ?? '',
        width: 180,
      },
    ],
    [t, statusText, date],
  );

  const all = templates.data?.data ?? EMPTY;
  const shown = useMemo(() => (status ? all.filter((x) => x.status === status) : all), [all, status]);

  const removeTemplate = async (template: MessageTemplate) => {
    const confirmed = await confirm({
      title: t('templates.confirm.title'),
      message: t('templates.confirm.message', { name: template.name, language: template.language }),
      tone: 'danger',
    });
    if (!confirmed) return;
    try {
      const response = await remove.mutateAsync(template);
      banner.success(response.message, FEEDBACK_MS);
    } catch (error) {
      console.error('Deleting the template failed', error);
      banner.error(
        isApiError(error) && error.serverMessage ? error.serverMessage : t('templates.feedback.deleteError'),
      );
    }
  };

  const runSync = () =>
    sync.mutate(undefined, {
      onSuccess: () => banner.success(t('templates.feedback.synced'), FEEDBACK_MS),
      onError: (error) =>
        banner.error(
          isApiError(error) && error.serverMessage ? error.serverMessage : t('templates.feedback.syncError'),
          FEEDBACK_MS,
        ),
    });

  return (
    <div className="page tpl-page">
      <header className="page-header">
        <h1 className="page-header__title">{t('templates.title')}</h1>
        <p className="page-header__subtitle">{t('templates.subtitle')}</p>
      </header>
      <MessageBox {...banner.props} />
      <div className="tpl-toolbar">
        <label className="tpl-toolbar__label" htmlFor={filterId}>
          {t('templates.filter.label')}
        </label>
        <select
          id={filterId}
          className="hb-input tpl-toolbar__select"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
        >
          <option value="">{t('templates.filter.all')}</option>
          {FILTER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusText(s)}
            </option>
          ))}
        </select>
        <span className="tpl-toolbar__spacer" />
        <Button onClick={runSync} busy={sync.isPending}>
          {t('templates.sync')}
        </Button>
        <Button variant="primary" onClick={() => setCreating(true)}>
          <PlusIcon size={16} />
          {t('templates.create')}
        </Button>
      </div>
      <DataTable<MessageTemplate>
        label={t('templates.table.label')}
        data={shown}
        columns={columns}
        getRowId={(x) => x.id}
        minWidth={900}
        rowActionsWidth={64}
        filterPlaceholder={t('templates.table.filter')}
        emptyMessage={t('templates.table.empty')}
        loading={(templates.isPending && !templates.isError) || remove.isPending}
        rowActions={(x) => (
          <button
            type="button"
            className="hb-icon-btn tpl-danger"
            onClick={() => void removeTemplate(x)}
            disabled={remove.isPending}
            aria-label={t('templates.delete', { name: x.name, language: x.language })}
            title={t('templates.delete', { name: x.name, language: x.language })}
          >
            <TrashIcon size={16} />
          </button>
        )}
      />
      {creating && (
        <TemplateForm
          onClose={() => setCreating(false)}
          onCreated={(message) => {
            setCreating(false);
            banner.success(message, FEEDBACK_MS);
          }}
        />
      )}
      {confirmDialog}
    </div>
  );
}
