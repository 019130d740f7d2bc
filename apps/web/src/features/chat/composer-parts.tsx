import type { MediaItem, MessageType, QuickReply } from '@hablabot/contract';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/lib/icons';

/** A file of the media library sent with the next message (its caption is the text box). */
export interface ComposerAttachment {
  id: number;
  name: string;
  mime_type: string;
}

export function attachmentOfLibrary(item: MediaItem): ComposerAttachment {
  return { id: item.id, name: item.file_name, mime_type: item.mime_type };
}

export function attachmentOfQuickReply(reply: QuickReply): ComposerAttachment | null {
  return reply.media
    ? { id: reply.media.id, name: reply.media.name, mime_type: reply.media.mime_type }
    : null;
}

/** How WhatsApp sends a file of this type. */
export function messageTypeOf(mime: string): MessageType {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

/** The attached file above the input, with a way to drop it. */
export function AttachmentChip({ file, onRemove }: { file: ComposerAttachment; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="chat-input__attachment" data-testid="chat-attachment">
      <span className="chat-input__attachment-name">{file.name}</span>
      <button
        type="button"
        className="chat-input__reply-cancel"
        aria-label={t('chat.composer.removeAttachment', { name: file.name })}
        onClick={onRemove}
      >
        <CloseIcon size={16} aria-hidden="true" />
      </button>
    </div>
  );
}

export type ComposerMode = 'reply' | 'note';

/** 'Responder' (to the customer, on WhatsApp) or 'Nota interna' (seen only by the team). */
export function ModeSwitch({
  mode,
  onChange,
}: {
  mode: ComposerMode;
  onChange: (mode: ComposerMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="chat-input__modes" role="radiogroup" aria-label={t('chat.composer.mode')}>
      {(['reply', 'note'] as const).map((value) => (
        <label key={value} className={`chat-input__mode${mode === value ? ' chat-input__mode--on' : ''}`}>
          <input
            type="radio"
            name="chat-composer-mode"
            value={value}
            checked={mode === value}
            onChange={() => onChange(value)}
          />
          {t(`chat.composer.${value}`)}
        </label>
      ))}
    </div>
  );
}
