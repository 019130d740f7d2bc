import { INBOX_REPLY_LENGTH_MAX } from '@hablabot/contract';
import type { UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField, Textarea } from '../../components';
import { type InboxSettingsFormValues, LIST_LIMITS } from './inbox-settings-form';

interface WordsFieldsProps {
  ids: (field: string) => string;
  register: UseFormRegister<InboxSettingsFormValues>;
  fieldError: (name: keyof InboxSettingsFormValues) => string | undefined;
}

type ListName = keyof typeof LIST_LIMITS;

/** One list of words or phrases: one entry per line. */
function ListField({ name, ids, register, fieldError }: WordsFieldsProps & { name: ListName }) {
  const { t } = useTranslation();
  const error = fieldError(name);
  const limits = LIST_LIMITS[name];
  return (
    <FormField
      id={ids(name)}
      label={t(`team.inbox.${name}`)}
      required
      hint={t(`team.inbox.${name}Hint`, { max: limits.max, length: limits.length })}
      error={error}
    >
      {(field) => (
        <Textarea
          id={field.id}
          rows={4}
          aria-required="true"
          showCounter={false}
          invalid={Boolean(error)}
          aria-describedby={field['aria-describedby']}
          spellCheck={false}
          {...register(name)}
        />
      )}
    </FormField>
  );
}

/** A free text sent to the customer (the opt-out reply, the hand-off message). */
function MessageField({
  name,
  required,
  ids,
  register,
  fieldError,
}: WordsFieldsProps & { name: 'opt_out_reply' | 'handoff_message'; required: boolean }) {
  const { t } = useTranslation();
  const error = fieldError(name);
  return (
    <FormField
      id={ids(name)}
      label={t(`team.inbox.${name}`)}
      required={required}
      optional={!required}
      hint={t(`team.inbox.${name}Hint`)}
      error={error}
    >
      {(field) => (
        <Textarea
          id={field.id}
          rows={3}
          aria-required={required ? 'true' : undefined}
          maxLength={INBOX_REPLY_LENGTH_MAX}
          showCounter={false}
          invalid={Boolean(error)}
          aria-describedby={field['aria-describedby']}
          {...register(name)}
        />
      )}
    </FormField>
  );
}

/**
 * The words of consent (a customer who writes one of the opt-out words stops receiving campaigns, an
 * opt-in word allows them again, the optional reply confirms) and the hand-off (the phrases that ask for
 * a person and what the customer is told then).
 */
export function InboxWordsFields(props: WordsFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <fieldset className="team-words">
        <legend className="team-words__legend">{t('team.inbox.consentTitle')}</legend>
        <p className="team-switch__hint">{t('team.inbox.consentHint')}</p>
        <div className="team-words__lists">
          <ListField name="opt_out_keywords" {...props} />
          <ListField name="opt_in_keywords" {...props} />
        </div>
        <MessageField name="opt_out_reply" required={false} {...props} />
      </fieldset>
      <fieldset className="team-words">
        <legend className="team-words__legend">{t('team.inbox.handoffTitle')}</legend>
        <ListField name="handoff_phrases" {...props} />
        <MessageField name="handoff_message" required {...props} />
      </fieldset>
    </>
  );
}
