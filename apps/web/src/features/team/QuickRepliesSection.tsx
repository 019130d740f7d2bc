import type { QuickReply } from '@hablabot/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  DataTable,
  type DataTableColumn,
  MediaKindIcon,
  MessageBox,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PencilIcon, PlusIcon, TrashIcon } from '../../components/lib/icons';
import { useDeleteQuickReply, useQuickReplies } from './api';
import { failureText } from './failure';
import { kindOfMime, QuickReplyForm } from './QuickReplyForm';

const SUCCESS_MESSAGE_MS = 4000;
const EMPTY: QuickReply[] = [];

/** 'Respuestas rápidas': the saved answers agents insert by typing '/' and the shortcut in the composer. */
export function QuickRepliesSection({ headingId }: { headingId: string }) {
  const { t } = useTranslation();
  const replies = useQuickReplies();
  const remove = useDeleteQuickReply();
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  const [modal, setModal] = useState<{ reply: QuickReply | null } | null>(null);

  useEffect(() => {
    if (replies.error) console.error('Loading the quick replies failed', replies.error);
  }, [replies.error]);

  const columns = useMemo<DataTableColumn<QuickReply>[]>(
    () => [
      {
        id: 'shortcut',
        header: t('team.quickReplies.table.shortcut'),
        accessor: 'shortcut',
        primary: true,
        width: 180,
        cell: (reply) => <code className="team-shortcut">/{reply.shortcut}</code>,
      },
      {
        id: 'text',
        header: t('team.quickReplies.table.text'),
        accessor: 'text',
        cell: (reply) => <span className="team-reply-text">{reply.text}</span>,
      },
      {
        id: 'media',
        header: t('team.quickReplies.table.media'),
        sortable: false,
        searchValue: (reply) => reply.media?.name ?? '',
        cell: (reply) =>
          reply.media ? (
            <span className="team-media__chosen">
              <MediaKindIcon kind={kindOfMime(reply.media.mime_type)} size={16} />
              <span className="team-media__name">{reply.media.name}</span>
            </span>
          ) : (
            <span className="team-muted">{t('team.quickReplies.table.noMedia')}</span>
          ),
      },
    ],
    [t],
  );

  const removeReply = async (reply: QuickReply) => {
    const confirmed = await confirm({
      title: t('team.quickReplies.confirm.title'),
      message: t('team.quickReplies.confirm.message', { shortcut: reply.shortcut }),
      tone: 'danger',
    });
    if (!confirmed) return;
    try {
      const response = await remove.mutateAsync(reply.id);
      banner.success(response.message || t('team.quickReplies.feedback.deleted'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      console.error('Deleting the quick reply failed', error);
      banner.error(failureText(error, t));
    }
  };

  return (
    <section className="team-card" aria-labelledby={headingId}>
      <div className="team-card__head">
        <div>
          <h2 id={headingId} className="team-card__title">
            {t('team.quickReplies.title')}
          </h2>
          <p className="team-card__description">{t('team.quickReplies.description')}</p>
        </div>
        <Button variant="primary" onClick={() => setModal({ reply: null })}>
          <PlusIcon size={16} />
          {t('team.quickReplies.create')}
        </Button>
      </div>
      <MessageBox {...banner.props} />
      <DataTable<QuickReply>
        label={t('team.quickReplies.table.label')}
        data={replies.data?.data ?? EMPTY}
        columns={columns}
        getRowId={(reply) => reply.id}
        minWidth={640}
        rowActionsWidth={96}
        filterPlaceholder={t('team.quickReplies.table.filter')}
        emptyMessage={t('team.quickReplies.table.empty')}
        loading={(replies.isPending && !replies.isError) || remove.isPending}
        rowActions={(reply) => (
          <>
            <button
              type="button"
              className="hb-icon-btn"
              onClick={() => setModal({ reply })}
              aria-label={t('team.quickReplies.edit', { shortcut: reply.shortcut })}
              title={t('team.quickReplies.edit', { shortcut: reply.shortcut })}
            >
              <PencilIcon size={16} />
            </button>
            <button
              type="button"
              className="hb-icon-btn team-danger-icon"
              onClick={() => void removeReply(reply)}
              disabled={remove.isPending}
              aria-label={t('team.quickReplies.delete', { shortcut: reply.shortcut })}
              title={t('team.quickReplies.delete', { shortcut: reply.shortcut })}
            >
              <TrashIcon size={16} />
            </button>
          </>
        )}
      />
      {modal && (
        <QuickReplyForm
          key={`reply-${modal.reply?.id ?? 'new'}`}
          reply={modal.reply}
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
