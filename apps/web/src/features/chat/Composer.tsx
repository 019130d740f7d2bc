import type { QuickReply } from '@hablabot/contract';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageBox, useMessageBox } from '../../components';
import { isApiError } from '../../lib/api-client';
import { MediaPickerDialog } from '../media/MediaPickerDialog';
import { ClientDetailsPanel } from './ClientDetailsPanel';
import {
  AttachmentChip,
  type ComposerAttachment,
  type ComposerMode,
  ModeSwitch,
  attachmentOfLibrary,
  attachmentOfQuickReply,
} from './composer-parts';
import { ComposerMenu } from './ComposerMenu';
import type { ChatContact } from './Conversation';
import { useConversationState } from './inbox-api';
import type { ChatMessage } from './MessageBubble';
import { useAddNote } from './notes';
import { QuickReplyList, filterQuickReplies, quickReplyQuery, useQuickReplies } from './quick-replies';
import { ScheduleDialog } from './ScheduleDialog';
import { WindowBanner, useChatWindow } from './WindowBanner';
import './composer.css';

export interface ComposerProps {
  contact: ChatContact;
  messages: readonly ChatMessage[];
  loading: boolean;
  draft: string;
  onDraftChange: (text: string) => void;
  /**
   * Sends to the customer: the text, or a library file with the text as its caption — at `sendAt` when
   * it is scheduled; whether the server took it.
   */
  onSend: (text: string, media: ComposerAttachment | null, sendAt?: string) => Promise<boolean>;
  onTemplates: () => void;
  /** The message being answered, shown above the bar. */
  reply: ReactNode;
}

/**
 * The composer under a conversation: the 24-hour window banner, the message being answered, 'Responder'
 * or 'Nota interna', the '+' menu (template, media library, client details), the quick replies that '/'
 * opens, the attached library file, the message input and the send button.
 */
export function Composer(props: ComposerProps) {
  const { contact, messages, loading, draft, onDraftChange, onSend, onTemplates, reply } = props;
  const { t } = useTranslation();
  const window = useChatWindow(messages);
  const banner = useMessageBox();
  const [mode, setMode] = useState<ComposerMode>('reply');
  const [attachment, setAttachment] = useState<ComposerAttachment | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const conversation = useConversationState(contact.id, contact.phone).data ?? null;
  const addNote = useAddNote(contact.id);
  const note = mode === 'note';

  // '/' at the start of the text opens the quick replies, filtered by what follows it.
  const query = note ? null : quickReplyQuery(draft);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  if (query !== null && !asked) setAsked(true);
  const quickReplies = useQuickReplies(asked);
  const suggestions = useMemo(
    () => (query === null ? [] : filterQuickReplies(quickReplies.data?.data ?? [], query)),
    [query, quickReplies.data],
  );
  const listOpen = query !== null && dismissed !== draft;
  const [active, setActive] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first suggestion is chosen anew as the query changes
  useEffect(() => setActive(0), [query]);
  const listId = useId();

  // A note is for the team: it may be written whatever the 24-hour window (only the conversation must exist).
  const open = note ? conversation !== null : !loading && window.state === 'open';
  const canSend = note
    ? open && draft.trim() !== '' && !addNote.isPending
    : open && (draft.trim() !== '' || attachment !== null);

  const choose = (chosen: QuickReply) => {
    onDraftChange(chosen.text);
    const file = attachmentOfQuickReply(chosen);
    if (file) setAttachment(file);
  };

  const submit = (sendAt?: string) => {
    if (!canSend) return;
    const text = draft.trim();
    onDraftChange('');
    if (!note) {
      // A send that fails gives the text back (Conversation) and the file too.
      const file = attachment;
      setAttachment(null);
      void onSend(text, file, sendAt).then((sent) => {
        if (!sent && file) setAttachment((current) => current ?? file);
      });
      return;
    }
    if (!conversation) return;
    addNote.mutate(
      { conversationId: conversation.id, text },
      {
        onError: (error) => {
          onDraftChange(text);
          banner.error(
            isApiError(error) && error.serverMessage ? error.serverMessage : t('chat.composer.noteError'),
          );
        },
      },
    );
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (listOpen && suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
        event.preventDefault();
        const chosen = suggestions[active];
        if (chosen) choose(chosen);
        return;
      }
    }
    if (listOpen && event.key === 'Escape') {
      event.preventDefault();
      setDismissed(draft);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const activeId = listOpen && suggestions[active] ? `${listId}-${suggestions[active].id}` : undefined;
  return (
    <div className={`chat-input${note ? ' chat-input--note' : ''}`}>
      {loading || note ? null : <WindowBanner window={window} />}
      {note ? null : reply}
      {banner.state ? <MessageBox {...banner.props} /> : null}
      {listOpen ? (
        <QuickReplyList
          id={listId}
          items={suggestions}
          active={active}
          loading={quickReplies.isPending}
          onChoose={choose}
          onHover={setActive}
        />
      ) : null}
      {attachment && !note ? <AttachmentChip file={attachment} onRemove={() => setAttachment(null)} /> : null}
      <ModeSwitch mode={mode} onChange={setMode} />
      <div className="chat-input__bar">
        <ComposerMenu
          onTemplates={onTemplates}
          onMedia={() => setPickerOpen(true)}
          onDetails={() => setDetailsOpen(true)}
          onSchedule={note ? undefined : () => setScheduleOpen(true)}
          scheduleDisabled={!canSend}
        />
        <textarea
          className="chat-input__text"
          rows={1}
          value={draft}
          disabled={!open}
          // A textarea may only be a textbox: it points at the quick replies' listbox while it is open.
          aria-autocomplete={note ? undefined : 'list'}
          aria-controls={listOpen ? listId : undefined}
          aria-activedescendant={activeId}
          aria-label={note ? t('chat.composer.notePlaceholder') : t('chat.input.placeholder')}
          placeholder={
            note
              ? t('chat.composer.notePlaceholder')
              : open || loading
                ? t('chat.input.placeholder')
                : t('chat.input.closedPlaceholder')
          }
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="chat-input__send" disabled={!canSend} onClick={() => submit()}>
          {note ? t('chat.composer.addNote') : t('chat.input.send')}
        </button>
      </div>
      <ScheduleDialog
        open={scheduleOpen}
        onClose={() => setScheduleOpen(false)}
        onConfirm={(sendAt) => {
          setScheduleOpen(false);
          submit(sendAt);
        }}
      />
      <MediaPickerDialog
        open={pickerOpen}
        onClose={() => setPickerOpen(false)}
        onSelect={(item) => {
          setMode('reply');
          setAttachment(attachmentOfLibrary(item));
        }}
      />
      <ClientDetailsPanel
        open={detailsOpen}
        onClose={() => setDetailsOpen(false)}
        contact={contact}
        conversation={conversation}
      />
    </div>
  );
}
