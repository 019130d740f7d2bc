import type { TeamMember } from '@hablabot/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  DataTable,
  type DataTableColumn,
  formatNumber,
  MessageBox,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PencilIcon, PlusIcon, TrashIcon } from '../../components/lib/icons';
import { useSession } from '../../lib/session';
import { useDeleteMember, useTeam } from './api';
import { failureText } from './failure';
import { MemberForm } from './MemberForm';

const SUCCESS_MESSAGE_MS = 4000;
const EMPTY: TeamMember[] = [];

/** 'En línea' with a green dot, 'Desconectado' with a grey one: the text says it, the dot only echoes. */
function Presence({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="team-presence" data-online={online ? 'true' : 'false'}>
      <span className="team-presence__dot" aria-hidden="true" />
      {online ? t('team.members.online') : t('team.members.offline')}
    </span>
  );
}

/** The company's admins and agents: who they are, their open conversations, and who is online. */
export function MembersSection({ headingId }: { headingId: string }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const team = useTeam();
  const remove = useDeleteMember();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const [modal, setModal] = useState<{ member: TeamMember | null } | null>(null);
  const members = team.data?.data ?? EMPTY;
  const language = i18n.resolvedLanguage ?? i18n.language;

  useEffect(() => {
    if (team.error) console.error('Loading the team failed', team.error);
  }, [team.error]);

  const columns = useMemo<DataTableColumn<TeamMember>[]>(
    () => [
      { id: 'name', header: t('team.members.table.name'), accessor: 'name', primary: true, width: 180 },
      { id: 'email', header: t('team.members.table.email'), accessor: 'email', primary: true },
      {
        id: 'role',
        header: t('team.members.table.role'),
        width: 140,
        searchValue: (member) => t(`team.roles.${member.role}`),
        sortValue: (member) => member.role,
        cell: (member) => (
          <span className="team-role" data-role={member.role}>
            {t(`team.roles.${member.role}`)}
          </span>
        ),
      },
      {
        id: 'open_conversations',
        header: t('team.members.table.open'),
        accessor: 'open_conversations',
        width: 140,
        cell: (member) => formatNumber(member.open_conversations, language),
      },
      {
        id: 'online',
        header: t('team.members.table.status'),
        width: 150,
        sortValue: (member) => (member.online ? 0 : 1),
        searchValue: (member) => (member.online ? t('team.members.online') : t('team.members.offline')),
        cell: (member) => <Presence online={member.online} />,
      },
    ],
    [t, language],
  );

  const removeMember = async (member: TeamMember) => {
    const confirmed = await confirm({
      title: t('team.members.confirm.title'),
      message: t('team.members.confirm.message', { name: member.name }),
      tone: 'danger',
    });
    if (!confirmed) return;
    try {
      const response = await remove.mutateAsync(member.id);
      banner.success(response.message || t('team.members.feedback.deleted'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      // The server explains a refusal: yourself, or the company's last admin (409).
      console.error('Deleting the team member failed', error);
      banner.error(failureText(error, t));
    }
  };

  const ownId = session?.user?.id;
  return (
    <section className="team-card" aria-labelledby={headingId}>
      <div className="team-card__head">
        <div>
          <h2 id={headingId} className="team-card__title">
            {t('team.members.title')}
          </h2>
          <p className="team-card__description">{t('team.members.description')}</p>
        </div>
        <Button variant="primary" onClick={() => setModal({ member: null })}>
          <PlusIcon size={16} />
          {t('team.members.create')}
        </Button>
      </div>
      <MessageBox {...banner.props} />
      <DataTable<TeamMember>
        label={t('team.members.table.label')}
        data={members}
        columns={columns}
        getRowId={(member) => member.id}
        minWidth={720}
        rowActionsWidth={96}
        filterPlaceholder={t('team.members.table.filter')}
        emptyMessage={t('team.members.table.empty')}
        loading={(team.isPending && !team.isError) || remove.isPending}
        rowActions={(member) => (
          <>
            <button
              type="button"
              className="hb-icon-btn"
              onClick={() => setModal({ member })}
              aria-label={t('team.members.edit', { name: member.name })}
              title={t('team.members.edit', { name: member.name })}
            >
              <PencilIcon size={16} />
            </button>
            <button
              type="button"
              className="hb-icon-btn team-danger-icon"
              onClick={() => void removeMember(member)}
              disabled={remove.isPending || member.id === ownId}
              aria-label={t('team.members.delete', { name: member.name })}
              title={
                member.id === ownId
                  ? t('team.members.cannotDeleteSelf')
                  : t('team.members.delete', { name: member.name })
              }
            >
              <TrashIcon size={16} />
            </button>
          </>
        )}
      />
      {modal && (
        <MemberForm
          key={`member-${modal.member?.id ?? 'new'}`}
          member={modal.member}
          onClose={() => setModal(null)}
          onSaved={(message) => {
            setModal(null);
            banner.success(message, SUCCESS_MESSAGE_MS);
          }}
        />
      )}
      {confirmDialog}
    </section>
  );
}
