import {
  BOT_NAME_MAX,
  BOT_PERSONALITY_MAX,
  type Bot,
  type BotRequest,
  ZBotRequest,
} from '@hablabot/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageBox, Textarea, useMessageBox, ValidationErrorList, FormModal } from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { isApiError } from '../../lib/api-client';
import { useSaveBot } from './api';

/** The bot modal closes this long after a successful save. */
export const BOT_FORM_CLOSE_MS = 2000;

const FIELDS = ['bot_name', 'personality'] as const;

export interface BotFormProps {
  /** The bot being edited; null creates one. */
  bot: Bot | null;
  onClose: () => void;
  /** Called with the saved bot as soon as the server accepts it (the page selects a new bot). */
  onSaved?: (bot: Bot) => void;
}

/** Create/edit bot modal: name and personality, both required; closes 2 s after a save. */
export function BotForm({ bot, onClose, onSaved }: BotFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const save = useSaveBot();
  const banner = useMessageBox();
  const [closing, setClosing] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const editing = bot !== null;

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const {
    register,
    handleSubmit,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<BotRequest>({
    schema: ZBotRequest,
    fieldLabels: 'bots.fields',
    defaultValues: { bot_name: bot?.bot_name ?? '', personality: bot?.personality ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync({ id: bot?.id, body: values });
      banner.success(response.message || t('bots.feedback.botSaved'));
      onSaved?.(response.bot);
      setClosing(true);
      closeTimer.current = setTimeout(onClose, BOT_FORM_CLOSE_MS);
    } catch (error) {
      if (applyServerErrors(error, { fields: FIELDS })) return;
      console.error('Saving the bot failed', error);
      const detail = isApiError(error) && error.status > 0 && error.status < 500 ? error.serverMessage : null;
      banner.error(detail || t('bots.feedback.internalError'));
    }
  });

  const busy = isSubmitting || save.isPending;
  const nameError = fieldError('bot_name');
  const personalityError = fieldError('personality');

  return (
    <FormModal
      formId={formId}
      title={editing ? t('bots.botForm.editTitle') : t('bots.botForm.createTitle')}
      size="lg"
      busy={busy}
      submitDisabled={closing}
      cancelLabel={t('bots.botForm.cancel')}
      submitLabel={editing ? t('bots.botForm.save') : t('bots.botForm.create')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <fieldset className="bots-form__fieldset" disabled={closing}>
        <FormField id={`${formId}-name`} label={t('bots.botForm.name')} required error={nameError}>
          {(field) => (
            <input
              {...field}
              className="hb-input"
              autoComplete="off"
              maxLength={BOT_NAME_MAX}
              {...register('bot_name')}
            />
          )}
        </FormField>
        <FormField
          id={`${formId}-personality`}
          label={t('bots.botForm.personality')}
          required
          hint={t('bots.botForm.personalityHint')}
          error={personalityError}
        >
          {(field) => (
            <Textarea
              id={field.id}
              rows={8}
              aria-required="true"
              maxLength={BOT_PERSONALITY_MAX}
              invalid={Boolean(personalityError)}
              aria-describedby={field['aria-describedby']}
              {...register('personality')}
            />
          )}
        </FormField>
      </fieldset>
    </FormModal>
  );
}
