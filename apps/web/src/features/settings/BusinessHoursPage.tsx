import { AWAY_MESSAGE_MAX, type BusinessHours, type BusinessHoursData } from '@hablabot/contract';
import { useId } from 'react';
import { type UseFormRegister, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  Button,
  FormField,
  MessageBox,
  useMessageBox,
  useZodForm,
  ValidationErrorList,
} from '../../components';
import { useBusinessHours, useSaveBusinessHours } from './business-hours-api';
import {
  type BusinessHoursFormValues,
  dayName,
  hoursIssueText,
  SCREEN_DAYS,
  timeZones,
  toFormValues,
  ZBusinessHoursForm,
} from './business-hours-form';
import { SettingsCard, SettingsPageLayout } from './SettingsLayout';
import './business-hours.css';

const FEEDBACK_MS = 5000;

/**
 * 'Horario de atención' (under 'Configuración'): the time zone, the opening ranges of each day (several a
 * day), the holidays, and the away message customers get outside hours.
 */
export default function BusinessHoursPage() {
  const { t } = useTranslation();
  const hours = useBusinessHours();
  return (
    <SettingsPageLayout
      title={t('businessHours.title')}
      subtitle={t('businessHours.subtitle')}
      className="hours-page"
      before={
        <p className="hours-page__back">
          <Link to="/admin/setting">{t('businessHours.back')}</Link>
        </p>
      }
    >
      {hours.data ? (
        <BusinessHoursForm hours={hours.data.data} />
      ) : hours.isError ? (
        <p role="alert" className="settings-card settings-load-error">
          {t('businessHours.loadError')}
        </p>
      ) : (
        <p role="status">{t('businessHours.loading')}</p>
      )}
    </SettingsPageLayout>
  );
}

function BusinessHoursForm({ hours }: { hours: BusinessHoursData }) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveBusinessHours();
  const banner = useMessageBox();
  const form = useZodForm<BusinessHoursFormValues, BusinessHours>({
    schema: ZBusinessHoursForm,
    fieldLabels: 'businessHours.fields',
    messages: hoursIssueText,
    defaultValues: toFormValues(hours),
  });
  const { register, control, handleSubmit, fieldError, applyServerErrors, clearServerErrors, serverErrors } =
    form;
  const days = useFieldArray({ control, name: 'days' });
  const holidays = useFieldArray({ control, name: 'holidays' });

  const onSubmit = handleSubmit(async (body) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync(body);
      banner.success(response.message || t('businessHours.saved'), FEEDBACK_MS);
    } catch (error) {
      const fields = [
        'timezone',
        ...days.fields.flatMap((_, i) => [`days.${i}.open`, `days.${i}.close`] as const),
        ...holidays.fields.map((_, i) => `holidays.${i}.date` as const),
        'away_message',
      ] as const;
      if (applyServerErrors(error, { fields: fields as never })) return;
      console.error('Saving the business hours failed', error);
      banner.error(t('businessHours.saveError'));
    }
  });

  const zones = timeZones();
  return (
    <form className="hours-form" onSubmit={onSubmit} noValidate aria-label={t('businessHours.title')}>
      <MessageBox {...banner.props} />
      {serverErrors ? <ValidationErrorList errors={serverErrors} /> : null}
      <SettingsCard headingId={ids('week')} title={t('businessHours.week')}>
        <FormField
          id={ids('timezone')}
          label={t('businessHours.fields.timezone')}
          required
          hint={t('businessHours.timezoneHint')}
          error={fieldError('timezone')}
        >
          {(field) => (
            <>
              <input {...field} className="hb-input" list={ids('zones')} {...register('timezone')} />
              <datalist id={ids('zones')}>
                {zones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
        <p className="hours-form__hint">{t('businessHours.daysHint')}</p>
        <ul className="hours-days">
          {SCREEN_DAYS.map((day) => {
            const name = dayName(day, i18n.language);
            const rows = days.fields
              .map((row, index) => ({ row, index }))
              .filter(({ row }) => row.day === day);
            return (
              <li key={day} className="hours-day">
                <span className="hours-day__name">{name}</span>
                <div className="hours-day__ranges">
                  {rows.length === 0 ? (
                    <span className="hours-day__closed">{t('businessHours.closed')}</span>
                  ) : null}
                  {rows.map(({ row, index }) => (
                    <RangeFields
                      key={row.id}
                      index={index}
                      dayLabel={name}
                      register={register}
                      openError={fieldError(`days.${index}.open`)}
                      closeError={fieldError(`days.${index}.close`)}
                      onRemove={() => days.remove(index)}
                    />
                  ))}
                  <Button
                    size="sm"
                    onClick={() => days.append({ day, open: '09:00', close: '18:00' })}
                    aria-label={t('businessHours.addRangeFor', { day: name })}
                  >
                    {t('businessHours.addRange')}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </SettingsCard>

      <SettingsCard headingId={ids('holidays')} title={t('businessHours.fields.holidays')}>
        <p className="hours-form__hint">{t('businessHours.holidaysHint')}</p>
        <ul className="hours-holidays">
          {holidays.fields.map((row, index) => (
            <li key={row.id} className="hours-holiday">
              <FormField
                id={ids(`holiday-${index}`)}
                label={t('businessHours.holiday', { n: index + 1 })}
                error={fieldError(`holidays.${index}.date`)}
              >
                {(field) => (
                  <input
                    {...field}
                    className="hb-input"
                    type="date"
                    {...register(`holidays.${index}.date`)}
                  />
                )}
              </FormField>
              <Button size="sm" variant="ghost" onClick={() => holidays.remove(index)}>
                {t('businessHours.remove')}
              </Button>
            </li>
          ))}
        </ul>
        <Button size="sm" onClick={() => holidays.append({ date: '' })}>
          {t('businessHours.addHoliday')}
        </Button>
      </SettingsCard>

      <SettingsCard headingId={ids('away')} title={t('businessHours.away')}>
        <label className="hours-switch">
          <input type="checkbox" {...register('away_enabled')} />
          <span>{t('businessHours.fields.away_enabled')}</span>
        </label>
        <FormField
          id={ids('away-message')}
          label={t('businessHours.fields.away_message')}
          hint={t('businessHours.awayHint')}
          error={fieldError('away_message')}
        >
          {(field) => (
            <textarea
              {...field}
              className="hb-input"
              rows={3}
              maxLength={AWAY_MESSAGE_MAX}
              {...register('away_message')}
            />
          )}
        </FormField>
        <label className="hours-switch">
          <input type="checkbox" {...register('away_with_bot')} />
          <span>{t('businessHours.fields.away_with_bot')}</span>
        </label>
      </SettingsCard>

      <div className="hours-form__actions">
        <Button type="submit" variant="primary" busy={form.formState.isSubmitting || save.isPending}>
          {t('businessHours.save')}
        </Button>
      </div>
    </form>
  );
}

function RangeFields(props: {
  index: number;
  dayLabel: string;
  register: UseFormRegister<BusinessHoursFormValues>;
  openError?: string;
  closeError?: string;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { index, dayLabel, register } = props;
  const id = useId();
  return (
    <div className="hours-range">
      <FormField
        id={`${id}-open`}
        label={t('businessHours.opens', { day: dayLabel })}
        error={props.openError}
      >
        {(field) => <input {...field} className="hb-input" type="time" {...register(`days.${index}.open`)} />}
      </FormField>
      <FormField
        id={`${id}-close`}
        label={t('businessHours.closes', { day: dayLabel })}
        error={props.closeError}
      >
        {(field) => (
          <input {...field} className="hb-input" type="time" {...register(`days.${index}.close`)} />
        )}
      </FormField>
      <Button
        size="sm"
        variant="ghost"
        onClick={props.onRemove}
        aria-label={t('businessHours.removeRange', { day: dayLabel })}
      >
        {t('businessHours.remove')}
      </Button>
    </div>
  );
}
