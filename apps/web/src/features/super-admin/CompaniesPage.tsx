import type { CompanyOverview } from '@hablabot/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn, MessageBox, useMessageBox } from '../../components';
import { PencilIcon, PlusIcon, UsersIcon } from '../../components/lib/icons';
import { intlLocale } from '../../lib/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useCompaniesOverview } from './api';
import { CompanyForm } from './CompanyForm';
import './super-admin.css';

const SUCCESS_MESSAGE_MS = 4000;
const EMPTY: CompanyOverview[] = [];

/** 'Compañías': each company with its admins, clients, this month's messages and WhatsApp state. */
export default function CompaniesPage() {
  const { t, i18n } = useTranslation();
  const query = useCompaniesOverview();
  const banner = useMessageBox();
  // The company being renamed, or 'new' while one is being created.
  const [editing, setEditing] = useState<CompanyOverview | 'new' | null>(null);
  useDocumentTitle(t('superAdmin.companies.title'));
  const language = i18n.resolvedLanguage ?? i18n.language;

  const columns = useMemo<DataTableColumn<CompanyOverview>[]>(() => {
    const numbers = new Intl.NumberFormat(intlLocale(language));
    const times = new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium', timeStyle: 'short' });
    return [
      { id: 'name', header: t('superAdmin.companies.table.name'), accessor: 'name', primary: true },
      {
        id: 'admins',
        header: t('superAdmin.companies.table.admins'),
        sortable: false,
        searchValue: (c) => c.admins.flatMap((a) => [a.name, a.email]),
        cell: (c) =>
          c.admins.length === 0 ? (
            <span className="sa-muted">{t('superAdmin.users.table.none')}</span>
          ) : (
            <ul className="sa-admins">
              {c.admins.map((a) => (
                <li key={a.id}>
                  {a.name} <span className="sa-muted">{a.email}</span>
                </li>
              ))}
            </ul>
          ),
      },
      {
        id: 'clients_count',
        header: t('superAdmin.companies.table.clients'),
        accessor: 'clients_count',
        cell: (c) => numbers.format(c.clients_count),
        width: 110,
      },
      {
        id: 'messages_this_month',
        header: t('superAdmin.companies.table.messages'),
        accessor: 'messages_this_month',
        cell: (c) => numbers.format(c.messages_this_month),
        width: 140,
      },
      {
        id: 'whatsapp',
        header: t('superAdmin.companies.table.whatsapp'),
        accessor: (c) => (c.whatsapp_configured ? 1 : 0),
        searchValue: () => [],
        cell: (c) => (
          <span className="sa-whatsapp">
            <span className={`sa-badge ${c.whatsapp_configured ? 'sa-badge--ok' : 'sa-badge--off'}`}>
              {c.whatsapp_configured
                ? t('superAdmin.companies.whatsapp.connected')
                : t('superAdmin.companies.whatsapp.notConfigured')}
            </span>
            <span className="sa-muted">
              {c.last_webhook_at
                ? t('superAdmin.companies.whatsapp.lastWebhook', {
                    time: times.format(new Date(c.last_webhook_at)),
                  })
                : t('superAdmin.companies.whatsapp.noWebhook')}
            </span>
          </span>
        ),
      },
    ];
  }, [t, language]);

  return (
    <div className="page sa-page">
      <header className="page-header sa-header">
        <div>
          <h1 className="page-header__title">{t('superAdmin.companies.title')}</h1>
          <p className="page-header__subtitle">{t('superAdmin.companies.subtitle')}</p>
        </div>
        <div className="sa-header__actions">
          <Link to="/super-admin/users" className="hb-btn hb-btn--secondary">
            <UsersIcon size={16} />
            {t('superAdmin.cards.users.action')}
          </Link>
          <button type="button" className="hb-btn hb-btn--primary" onClick={() => setEditing('new')}>
            <PlusIcon size={16} />
            {t('superAdmin.companies.create')}
          </button>
        </div>
      </header>
      <MessageBox {...banner.props} />
      {query.isError && !query.data && (
        <MessageBox type="error" message={t('superAdmin.companies.loadError')} />
      )}
      <DataTable<CompanyOverview>
        label={t('superAdmin.companies.table.label')}
        data={query.data?.data ?? EMPTY}
        columns={columns}
        getRowId={(c) => c.id}
        minWidth={880}
        rowActionsWidth={96}
        selectable={false}
        filterPlaceholder={t('superAdmin.companies.table.filter')}
        emptyMessage={t('superAdmin.companies.table.empty')}
        loading={query.isPending && !query.isError}
        rowActions={(c) => (
          <>
            <button
              type="button"
              className="hb-icon-btn"
              onClick={() => setEditing(c)}
              aria-label={t('superAdmin.companies.rename', { name: c.name })}
              title={t('superAdmin.companies.rename', { name: c.name })}
            >
              <PencilIcon size={16} />
            </button>
            <Link
              to={`/super-admin/users?company=${c.id}`}
              className="hb-icon-btn"
              aria-label={t('superAdmin.companies.openUsers', { name: c.name })}
              title={t('superAdmin.companies.openUsers', { name: c.name })}
            >
              <UsersIcon size={16} />
            </Link>
          </>
        )}
      />
      {editing && (
        <CompanyForm
          key={editing === 'new' ? 'new' : editing.id}
          company={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            banner.success(message, SUCCESS_MESSAGE_MS);
          }}
        />
      )}
    </div>
  );
}
