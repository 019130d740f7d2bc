import type { User } from '@hablabot/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  Button,
  Chip,
  DataTable,
  type DataTableColumn,
  MessageBox,
  type SelectionHelpers,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PencilIcon, PlusIcon, TrashIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { intlLocale } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useCompanies, useDeleteUsers, useRoles, useUsers } from './api';
import { UserForm } from './UserForm';
import './super-admin.css';
import { roleTitle } from './builtin-roles';

const SUCCESS_MESSAGE_MS = 4000;
const EMPTY_USERS: User[] = [];

/** 'Administrar usuarios': every user with their roles, and the form that creates and edits them. */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const [searchParams] = useSearchParams();
  const session = useSession();
  const usersQuery = useUsers();
  const rolesQuery = useRoles();
  const companiesQuery = useCompanies();
  const deleteUsers = useDeleteUsers();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const [modal, setModal] = useState<{ user: User | null } | null>(null);
  useDocumentTitle(t('superAdmin.users.title'));

  // Opened from a company ('Ver usuarios'): only that company's users.
  const companyFilter = Number(searchParams.get('company')) || null;
  const allUsers = usersQuery.data?.data ?? EMPTY_USERS;
  const users = useMemo(
    () => (companyFilter ? allUsers.filter((user) => user.company_id === companyFilter) : allUsers),
    [allUsers, companyFilter],
  );
  const companyName = companyFilter
    ? companiesQuery.data?.data.find((company) => company.id === companyFilter)?.name
    : undefined;

  useEffect(() => {
    if (usersQuery.error) console.error('Loading the users failed', usersQuery.error);
  }, [usersQuery.error]);

  const language = i18n.resolvedLanguage ?? i18n.language;
  const columns = useMemo<DataTableColumn<User>[]>(() => {
    const dates = new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium' });
    return [
      { id: 'id', header: t('superAdmin.users.table.id'), accessor: 'id', width: 70 },
      { id: 'name', header: t('superAdmin.users.table.name'), accessor: 'name', primary: true },
      {
        id: 'roles',
        header: t('superAdmin.users.table.roles'),
        sortable: false,
        searchValue: (user) => user.roles.map((role) => roleTitle(role, t)),
        cell: (user) =>
          user.roles.length === 0 ? (
            <span className="sa-muted">{t('superAdmin.users.table.none')}</span>
          ) : (
            <span className="sa-chips">
              {user.roles.map((role) => (
                <Chip key={role.id} label={roleTitle(role, t)} color={role.color} size="sm" />
              ))}
            </span>
          ),
      },
      { id: 'email', header: t('superAdmin.users.table.email'), accessor: 'email', primary: true },
      {
        id: 'created_at',
        header: t('superAdmin.users.table.created'),
        accessor: 'created_at',
        cell: (user) => dates.format(new Date(user.created_at)),
        sortValue: (user) => user.created_at,
      },
    ];
  }, [t, language]);

  const remove = async (rows: User[], helpers?: SelectionHelpers) => {
    if (rows.length === 0) return;
    const confirmed = await confirm({
      title: t('superAdmin.users.confirm.title', { count: rows.length }),
      message: t('superAdmin.users.confirm.message', { count: rows.length }),
      tone: 'danger',
    });
    if (!confirmed) return;
    try {
      const response = await deleteUsers.mutateAsync(rows.map((row) => row.id));
      helpers?.clearSelection();
      banner.success(response.message || t('superAdmin.users.feedback.deleted'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      console.error('Deleting users failed', error);
      // The server explains a refusal (yourself, the last super admin); a failure without an
      // explanation reads 'Error al eliminar el usuario.', no answer at all the unexpected-error text.
      banner.error(
        isApiError(error) && error.status > 0
          ? error.status < 500 && error.serverMessage
            ? error.serverMessage
            : t('superAdmin.users.feedback.deleteError')
          : t('superAdmin.users.feedback.deleteUnexpected'),
      );
    }
  };

  const ownId = session?.user?.id;
  return (
    <div className="page sa-page">
      <header className="page-header sa-header">
        <div>
          <h1 className="page-header__title">{t('superAdmin.users.title')}</h1>
          {companyName && (
            <p className="page-header__subtitle" data-testid="company-filter">
              {t('superAdmin.users.ofCompany', { name: companyName })}
            </p>
          )}
        </div>
        <Button variant="primary" onClick={() => setModal({ user: null })}>
          <PlusIcon size={16} />
          {t('superAdmin.users.create')}
        </Button>
      </header>
      <MessageBox {...banner.props} />
      <DataTable<User>
        className="sa-users-table"
        label={t('superAdmin.users.table.label')}
        data={users}
        columns={columns}
        getRowId={(user) => user.id}
        minWidth={720}
        rowActionsWidth={96}
        filterPlaceholder={t('superAdmin.users.table.filter')}
        emptyMessage={t('superAdmin.users.table.empty')}
        loading={(usersQuery.isPending && !usersQuery.isError) || deleteUsers.isPending}
        onEdit={(user) => setModal({ user })}
        onDelete={(rows, helpers) => remove(rows, helpers)}
        rowActions={(user) => (
          <>
            <button
              type="button"
              className="hb-icon-btn"
              onClick={() => setModal({ user })}
              aria-label={t('superAdmin.users.edit', { name: user.name })}
              title={t('superAdmin.users.edit', { name: user.name })}
            >
              <PencilIcon size={16} />
            </button>
            <button
              type="button"
              className="hb-icon-btn sa-danger-icon"
              onClick={() => remove([user])}
              disabled={deleteUsers.isPending || user.id === ownId}
              aria-label={t('superAdmin.users.delete', { name: user.name })}
              title={
                user.id === ownId
                  ? t('superAdmin.users.cannotDeleteSelf')
                  : t('superAdmin.users.delete', { name: user.name })
              }
            >
              <TrashIcon size={16} />
            </button>
          </>
        )}
      />
      {modal && (
        <UserForm
          key={`user-${modal.user?.id ?? 'new'}`}
          user={modal.user}
          roles={rolesQuery.data?.data ?? []}
          companies={companiesQuery.data?.data ?? []}
          onClose={() => setModal(null)}
          onSaved={(message) => {
            setModal(null);
            banner.success(message, SUCCESS_MESSAGE_MS);
          }}
        />
      )}
      {confirmDialog}
    </div>
  );
}
