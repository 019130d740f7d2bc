import { AGENT_CAPACITY_MAX, type InboxSettings } from '@hablabot/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormField, MessageBox, useMessageBox, useZodForm } from '../../components';
import { useInboxSettings, useSaveInboxSettings } from './api';
import { failureText } from './failure';
import { InboxWordsFields } from './InboxWordsFields';
import {
  type InboxSettingsFormValues,
  listIssueText,
  toFormValues,
  ZInboxSettingsForm,
} from './inbox-settings-form';

const SUCCESS_MESSAGE_MS = 4000;
const FIELDS: readonly (keyof InboxSettingsFormValues)[] = [
  'agents_see_all',
  'auto_assign',
  'agent_capacity',
  'opt_out_keywords',
  'opt_in_keywords',
  'opt_out_reply',
  'handoff_phrases',
  'handoff_message',
];

/**
 * 'Bandeja de entrada': whether agents see every conversation (otherwise only theirs and the unassigned
 * ones), whether new conversations are handed out on their own, how many open ones an agent gets, the
 * words of consent and the hand-off phrases.
 */
export function InboxSettingsSection({ headingId }: { headingId: string }) {
  const { t } = useTranslation();
  const settings = useInboxSettings();
  return (
    <section className="team-card" aria-labelledby={headingId}>
      <div className="team-card__head">
        <div>
          <h2 id={headingId} className="team-card__title">
            {t('team.inbox.title')}
          </h2>
          <p className="team-card__description">{t('team.inbox.description')}</p>
        </div>
      </div>
      {settings.data ? (
        <InboxSettingsForm settings={settings.data.data} />
      ) : settings.isError ? (
        <p role="alert" className="team-load-error">
          {t('team.inbox.loadError')}
        </p>
      ) : (
        <p role="status" className="team-muted">
          {t('team.loading')}
        </p>
      )}
    </section>
  );
}

function InboxSettingsForm({ settings }: { settings: InboxSettings }) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveInboxSettings();
  const banner = useMessageBox();
  const {
    register,
    handleSubmit,
    fieldError,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<InboxSettingsFormValues, InboxSettings>({
    schema: ZInboxSettingsForm,
    fieldLabels: 'team.inbox.fields',
    messages: listIssueText,
    defaultValues: toFormValues(settings),
  });

  const onSubmit = handleSubmit(async (body) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync(body);
      banner.success(response.message || t('team.inbox.saved'), SUCCESS_MESSAGE_MS);
    } catch (error) {
      if (applyServerErrors(error, { fields: FIELDS })) return;
      console.error('Saving the inbox settings failed', error);
      banner.error(failureText(error, t));
    }
  });

  const busy = isSubmitting || save.isPending;
  return (
    <form className="team-inbox-form" onSubmit={onSubmit} noValidate aria-label={t('team.inbox.title')}>
      <MessageBox {...banner.props} />
      <label className="team-switch">
        <input type="checkbox" aria-describedby={ids('see-all-hint')} {...register('agents_see_all')} />
        <span className="team-switch__text">
          <span className="team-switch__label">{t('team.inbox.agentsSeeAll')}</span>
          <span id={ids('see-all-hint')} className="team-switch__hint">
            {t('team.inbox.agentsSeeAllHint')}
          </span>
        </span>
      </label>
      <label className="team-switch">
        <input type="checkbox" aria-describedby={ids('auto-assign-hint')} {...register('auto_assign')} />
        <span className="team-switch__text">
          <span className="team-switch__label">{t('team.inbox.autoAssign')}</span>
          <span id={ids('auto-assign-hint')} className="team-switch__hint">
            {t('team.inbox.autoAssignHint')}
          </span>
        </span>
      </label>
      <FormField
        id={ids('capacity')}
        label={t('team.inbox.capacity')}
        required
        hint={t('team.inbox.capacityHint', { max: AGENT_CAPACITY_MAX })}
        error={fieldError('agent_capacity')}
        className="team-capacity"
      >
        {(field) => (
          <input
            {...field}
            className="hb-input"
            type="number"
            inputMode="numeric"
            min={1}
            max={AGENT_CAPACITY_MAX}
            step={1}
            {...register('agent_capacity', {
              setValueAs: (value: unknown) => (value === '' || value == null ? undefined : Number(value)),
            })}
          />
        )}
      </FormField>
      <InboxWordsFields ids={ids} register={register} fieldError={fieldError} />
      <div className="team-form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          {t('team.inbox.save')}
        </Button>
      </div>
    </form>
  );
}
