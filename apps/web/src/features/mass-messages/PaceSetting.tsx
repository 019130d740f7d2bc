import { MASS_MAX_MESSAGES_PER_SECOND, ZMassSettings } from '@hablabot/contract';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, MessageBox, useMessageBox } from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { isApiError } from '../../lib/api-client';
import { usePace, useSavePace } from './api';

interface PaceValues {
  messages_per_second: string;
}

/**
 * The company's sending pace: how many messages per second its sends keep to (WhatsApp's limit for the
 * number; 80 by default). Sends already running pick it up on their next run.
 */
export function PaceSetting() {
  const { t } = useTranslation();
  const id = useId();
  const pace = usePace();
  const save = useSavePace();
  const banner = useMessageBox(4000);
  const { register, handleSubmit, reset, fieldError, applyServerErrors } = useZodForm<PaceValues>({
    schema: ZMassSettings,
    fieldLabels: 'massMessages.fieldNames',
    defaultValues: { messages_per_second: '' },
    // A number out of range, or none: said as a range, not as a text length.
    messages: (issue, translate) =>
      issue.code === 'contract'
        ? undefined
        : translate('massMessages.pace.range', { max: MASS_MAX_MESSAGES_PER_SECOND }),
  });
  const current = pace.data?.data.messages_per_second;

  useEffect(() => {
    if (current !== undefined) reset({ messages_per_second: String(current) });
  }, [current, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const response = await save.mutateAsync({ messages_per_second: Number(values.messages_per_second) });
      banner.success(response.message);
    } catch (error) {
      if (applyServerErrors(error, { fields: ['messages_per_second'] })) return;
      banner.error(
        isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
          ? error.serverMessage
          : t('massMessages.feedback.listInternalError'),
      );
    }
  });

  return (
    <details className="mm-pace">
      <summary>
        {current === undefined
          ? t('massMessages.pace.title')
          : t('massMessages.pace.summary', { count: current })}
      </summary>
      <form className="mm-pace__form" onSubmit={onSubmit} noValidate>
        <MessageBox {...banner.props} />
        <FormField
          id={`${id}-pace`}
          label={t('massMessages.pace.label')}
          hint={t('massMessages.pace.hint', { max: MASS_MAX_MESSAGES_PER_SECOND })}
          error={fieldError('messages_per_second')}
        >
          {(field) => (
            <input
              {...field}
              type="number"
              inputMode="numeric"
              min={1}
              max={MASS_MAX_MESSAGES_PER_SECOND}
              className="hb-input mm-pace__input"
              {...register('messages_per_second')}
            />
          )}
        </FormField>
        <Button type="submit" size="sm" variant="secondary" busy={save.isPending}>
          {t('massMessages.pace.save')}
        </Button>
      </form>
    </details>
  );
}
