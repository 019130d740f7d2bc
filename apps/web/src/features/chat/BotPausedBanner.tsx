import { useTranslation } from 'react-i18next';
import { useToggleBotMode } from './api';
import { useConversationState } from './inbox-api';

/** Says, above the history, that the bot does not answer this client now, with one button to resume it. */
export function BotPausedBanner({ clientId, phone }: { clientId: number; phone: string }) {
  const { t } = useTranslation();
  const conversation = useConversationState(clientId, phone).data ?? null;
  const toggle = useToggleBotMode();
  if (conversation?.mode_bot !== 0) return null;
  return (
    <div className="chat-bot-paused" role="status">
      <span>{t('chat.inbox.botPaused')}</span>
      <button
        type="button"
        className="chat-bot-paused__resume"
        disabled={toggle.isPending}
        onClick={() => toggle.mutate({ clientId, mode: 1 })}
      >
        {t('chat.inbox.resumeBot')}
      </button>
    </div>
  );
}
