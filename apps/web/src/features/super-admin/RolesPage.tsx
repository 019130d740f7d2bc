import type { Role } from '@hablabot/contract';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, LoadingOverlay, MessageBox, Modal, useConfirmDialog, useMessageBox } from '../../components';
import { PencilIcon, PlusIcon, SettingsIcon, TrashIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useDeleteRole, useRoles } from './api';
import { roleDescription, roleLabel } from './builtin-roles';
import { RoleForm } from './RoleForm';
import './super-admin.css';

const SUCCESS_MESSAGE_MS = 4000;

/** 'Administrar roles': a card per role with its users, and the forms that create, edit and delete. */
export default function RolesPage() {
  const { t } = useTranslation();
  const rolesQuery = useRoles();
  const deleteRole = useDeleteRole();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const [modal, setModal] = useState<{ role: Role | null } | null>(null);
  const [configuring, setConfiguring] = useState<Role | null>(null);
  useDocumentTitle(t('superAdmin.roles.title'));

  const remove = async (role: Role) => {
    const confirmed = await confirm({
      title: t('superAdmin.roles.confirm.title', { name: role.name }),
      message: t('superAdmin.roles.confirm.message'),
      tone: 'danger',
    });
    if (!confirmed) return;
    try {
      const response = await deleteRole.mutateAsync(role.id);
      banner.success(response.message || t('superAdmin.roles.feedback.deleted'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      console.error('Deleting the role failed', error);
      const reason = isApiError(error) && error.status > 0 && error.status < 500 ? error.serverMessage : null;
      banner.error(
        reason
          ? `${t('superAdmin.roles.feedback.deleteError')} ${reason}`
          : t('superAdmin.roles.feedback.deleteError'),
      );
    }
  };

  const roles = rolesQuery.data?.data ?? [];
  return (
    <div className="page sa-page">
      <header className="page-header sa-header">
        <h1 className="page-header__title">{t('superAdmin.roles.title')}</h1>
        <Button variant="primary" onClick={() => setModal({ role: null })}>
          <PlusIcon size={16} />
          {t('superAdmin.roles.create')}
        </Button>
      </header>
      <MessageBox {...banner.props} />
      {rolesQuery.isPending && (
        <p className="sa-muted" role="status">
          {t('superAdmin.roles.loading')}
        </p>
      )}
      {rolesQuery.isError && !rolesQuery.data && (
        <MessageBox type="error" message={t('superAdmin.roles.loadError')} />
      )}
      <div style={{ position: 'relative' }}>
        <ul className="sa-role-grid" aria-label={t('superAdmin.roles.listLabel')}>
          {roles.map((role) => (
            <li
              key={role.id}
              className="sa-role-card"
              style={{ '--sa-role-color': role.color } as CSSProperties}
              aria-labelledby={`role-${role.id}`}
            >
              <div className="sa-role-card__head">
                <div>
                  <h2 id={`role-${role.id}`} className="sa-role-card__name">
                    {role.name}
                  </h2>
                  {roleLabel(role, t) && <p className="sa-muted sa-role-card__label">{roleLabel(role, t)}</p>}
                </div>
                <span className="sa-badge">
                  {t('superAdmin.roles.usersCount', { count: role.usersCount })}
                </span>
              </div>
              <p className="sa-role-card__description">
                {roleDescription(role, t) || (
                  <span className="sa-muted">{t('superAdmin.roles.noDescription')}</span>
                )}
              </p>
              <span className="sa-role-card__swatch">
                <span className="sr-only">{t('superAdmin.roles.form.color')}:</span>
                {role.color}
              </span>
              {role.builtin && (
                <p className="sa-role-card__builtin sa-muted">{t('superAdmin.roles.builtin')}</p>
              )}
              <div className="sa-role-card__actions">
                <Button size="sm" variant="secondary" onClick={() => setModal({ role })}>
                  <PencilIcon size={14} />
                  {t('superAdmin.roles.update')}
                  <span className="sr-only"> {role.name}</span>
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => void remove(role)}
                  disabled={role.builtin || deleteRole.isPending}
                  title={role.builtin ? t('superAdmin.roles.builtin') : undefined}
                >
                  <TrashIcon size={14} />
                  {t('superAdmin.roles.delete')}
                  <span className="sr-only"> {role.name}</span>
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setConfiguring(role)}>
                  <SettingsIcon size={14} />
                  {t('superAdmin.roles.configure')}
                  <span className="sr-only"> {role.name}</span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
        {deleteRole.isPending && <LoadingOverlay />}
      </div>
      {modal && (
        <RoleForm
          key={`role-${modal.role?.id ?? 'new'}`}
          role={modal.role}
          onClose={() => setModal(null)}
          onSaved={(message) => {
            setModal(null);
            banner.success(message, SUCCESS_MESSAGE_MS);
          }}
        />
      )}
      {configuring && (
        <Modal
          open
          onClose={() => setConfiguring(null)}
          title={t('superAdmin.roles.configureTitle', { name: configuring.name })}
          size="sm"
        >
          <section aria-labelledby="role-permissions">
            <h3 id="role-permissions">{t('superAdmin.roles.permissions')}</h3>
            <p>{t('superAdmin.roles.inDevelopment')}</p>
          </section>
        </Modal>
      )}
      {confirmDialog}
    </div>
  );
}
