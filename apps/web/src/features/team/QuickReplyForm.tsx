import {
  MESSAGE_TEXT_MAX,
  type MediaKind,
  type QuickReply,
  type QuickReplyRequest,
  ZQuickReplyRequest,
} from '@hablabot/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  FormField,
  FormModal,
  MediaKindIcon,
  MessageBox,
  Textarea,
  useMessageBox,
  useZodForm,
  ValidationErrorList,
} from '../../components';
import { MediaPickerDialog } from '../media/MediaPickerDialog';
import { useSaveQuickReply } from './api';
import { failureText } from './failure';

export interface QuickReplyFormValues {
  shortcut: string;
  text: string;
  media_id: number | null;
}

const FIELDS: readonly (keyof QuickReplyFormValues)[] = ['shortcut', 'text', 'media_id'];

/** The icon's kind of a library file from its type (image, video, audio; anything else a document). */
export function kindOfMime(mime: string): MediaKind {
  const top = mime.split('/')[0];
  return top === 'image' || top === 'video' || top === 'audio' ? top : 'document';
}

/** The chosen library file, as the form shows it. */
type ChosenMedia = { id: number; name: string; mime_type: string } | null;

export interface QuickReplyFormProps {
  /** The reply being edited; null writes a new one. */
  reply: QuickReply | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/**
 * 'Nueva respuesta rápida' / 'Editar respuesta rápida': the shortcut typed after '/' in the composer
 * (a-z, 0-9, _ and -, up to 32), the text, and optionally a file of the media library sent with it.
 */
export function QuickReplyForm({ reply, onClose, onSaved }: QuickReplyFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveQuickReply();
  const banner = useMessageBox();
  const editing = reply !== null;
  const [pickerOpen, setPickerOpen] = useState(false);
  const [media, setMedia] = useState<ChosenMedia>(
    reply?.media ? { id: reply.media.id, name: reply.media.name, mime_type: reply.media.mime_type } : null,
  );
  const {
    register,
    handleSubmit,
    setValue,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<QuickReplyFormValues, QuickReplyRequest>({
    schema: ZQuickReplyRequest,
    fieldLabels: 'team.quickReplies.fields',
    defaultValues: {
      shortcut: reply?.shortcut ?? '',
      text: reply?.text ?? '',
      media_id: reply?.media_id ?? null,
    },
  });

  const chooseMedia = (next: ChosenMedia) => {
    setMedia(next);
    setValue('media_id', next?.id ?? null, { shouldDirty: true });
  };

  const onSubmit = handleSubmit(async (body) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync({ id: reply?.id, body });
      onSaved(response.message || t('team.quickReplies.feedback.saved'));
    } catch (error) {
      // A shortcut already used in the company answers 409: its message goes on the shortcut.
      if (applyServerErrors(error, { fields: FIELDS, conflictField: 'shortcut' })) return;
      console.error('Saving the quick reply failed', error);
      banner.error(failureText(error, t));
    }
  });

  const busy = isSubmitting || save.isPending;
  const textError = fieldError('text');
  return (
    <>
      <FormModal
        formId={formId}
        title={editing ? t('team.quickReplies.form.editTitle') : t('team.quickReplies.form.createTitle')}
        size="md"
        busy={busy}
        cancelLabel={t('team.quickReplies.form.cancel')}
        submitLabel={editing ? t('team.quickReplies.form.save') : t('team.quickReplies.form.create')}
        onClose={onClose}
        onSubmit={onSubmit}
      >
        <MessageBox {...banner.props} />
        <ValidationErrorList errors={serverErrors} />
        <FormField
          id={ids('shortcut')}
          label={t('team.quickReplies.form.shortcut')}
          required
          hint={t('team.quickReplies.form.shortcutHint')}
          error={fieldError('shortcut')}
        >
          {(field) => (
            <input
              {...field}
              className="hb-input"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              maxLength={32}
              {...register('shortcut')}
            />
          )}
        </FormField>
        <FormField id={ids('text')} label={t('team.quickReplies.form.text')} required error={textError}>
          {(field) => (
            <Textarea
              id={field.id}
              rows={5}
              aria-required="true"
              maxLength={MESSAGE_TEXT_MAX}
              showCounter={false}
              invalid={Boolean(textError)}
              aria-describedby={field['aria-describedby']}
              {...register('text')}
            />
          )}
        </FormField>
        <fieldset className="team-media">
          <legend className="team-media__label">
            {t('team.quickReplies.form.media')}{' '}
            <span className="team-muted">{t('team.quickReplies.form.optional')}</span>
          </legend>
          {media ? (
            <span className="team-media__chosen" data-testid="quick-reply-media">
              <MediaKindIcon kind={kindOfMime(media.mime_type)} size={18} />
              <span className="team-media__name">{media.name}</span>
            </span>
          ) : (
            <span className="team-muted">{t('team.quickReplies.form.noMedia')}</span>
          )}
          <span className="team-media__actions">
            <Button size="sm" onClick={() => setPickerOpen(true)} disabled={busy}>
              {media ? t('team.quickReplies.form.changeMedia') : t('team.quickReplies.form.chooseMedia')}
            </Button>
            {media && (
              <Button size="sm" onClick={() => chooseMedia(null)} disabled={busy}>
                {t('team.quickReplies.form.removeMedia')}
              </Button>
            )}
          </span>
          {fieldError('media_id') && (
            <span className="team-field-error" role="alert">
              {fieldError('media_id')}
            </span>
          )}
        </fieldset>
      </FormModal>
      <MediaPickerDialog
        open={pickerOpen}
        onClose={() => setPickerOpen(false)}
        onSelect={(item) => chooseMedia({ id: item.id, name: item.file_name, mime_type: item.mime_type })}
      />
    </>
  );
}
