import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-client';
import { useConversationAction, useConversationState, useTeam, useViewer } from './inbox-api';

export interface ConversationActionsProps {
  clientId: number;
  phone: string;
}

/**
 * The open conversation's assignee and status, in its header: an admin picks anyone of the team (or
 * nobody) in a select; an agent takes an unassigned conversation ('Tomar') or gives back their own
 * ('Soltar'). Anyone who sees it resolves or reopens it. Changes by others arrive live (see ChatPage).
 */
export function ConversationActions({ clientId, phone }: ConversationActionsProps) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const conversation = useConversationState(clientId, phone).data ?? null;
  const team = useTeam(!viewer.agent && conversation !== null);
  const action = useConversationAction(conversation?.id ?? null);
  if (!conversation) return null;
  const { assignee, status } = conversation;
  const busy = action.isPending;
  const members = team.data?.data ?? [];
  // The assignee stays a choice while the team loads (or after they left it).
  const options = assignee && !members.some((m) => m.id === assignee.id) ? [assignee, ...members] : members;

  return (
    <div className="chat-actions">
      {viewer.agent ? (
        assignee === null ? (
          <button
            type="button"
            className="chat-actions__button"
            disabled={busy || viewer.id === null}
            onClick={() => action.mutate({ type: 'assign', userId: viewer.id })}
          >
            {t('chat.inbox.take')}
          </button>
        ) : assignee.id === viewer.id ? (
          <button
            type="button"
            className="chat-actions__button"
            disabled={busy}
            onClick={() => action.mutate({ type: 'assign', userId: null })}
          >
            {t('chat.inbox.release')}
          </button>
        ) : (
          <span className="chat-actions__assignee">
            {t('chat.inbox.assignedTo', { name: assignee.name })}
          </span>
        )
      ) : (
        <label className="chat-actions__select">
          <span className="sr-only">{t('chat.inbox.assignee')}</span>
          <select
            value={assignee?.id ?? ''}
            disabled={busy}
            onChange={(event) =>
              action.mutate({
                type: 'assign',
                userId: event.target.value === '' ? null : Number(event.target.value),
              })
            }
          >
            <option value="">{t('chat.inbox.unassigned')}</option>
            {options.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <button
        type="button"
        className="chat-actions__button"
        disabled={busy}
        onClick={() => action.mutate({ type: status === 'open' ? 'resolve' : 'reopen' })}
      >
        {t(status === 'open' ? 'chat.inbox.resolve' : 'chat.inbox.reopen')}
      </button>
      {action.isError ? (
        <p className="chat-actions__error" role="alert">
          {isApiError(action.error) && action.error.serverMessage
            ? action.error.serverMessage
            : t('chat.inbox.actionError')}
        </p>
      ) : null}
    </div>
  );
}
