import {
  DEFAULT_SEGMENT_COLOR,
  SEGMENT_RULES_MAX,
  type Segment,
  type SegmentRequest,
  ZSegmentRequest,
} from '@hablabot/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  ColorPicker,
  MessageBox,
  Textarea,
  useMessageBox,
  ValidationErrorList,
  FormModal,
} from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { isApiError } from '../../lib/api-client';
import { useSaveSegment } from './api';

/** The segment message clears after 4 s; an edited segment's modal closes after 2 s. */
export const SEGMENT_MESSAGE_MS = 4000;
export const SEGMENT_EDIT_CLOSE_MS = 2000;

const FIELDS = ['name', 'color', 'rules'] as const;

function initialValues(segment: Segment | null): SegmentRequest {
  return {
    name: segment?.name ?? '',
    color: segment?.color ?? DEFAULT_SEGMENT_COLOR,
    rules: segment?.rules ?? '',
  };
}

export interface SegmentFormProps {
  /** The segment being edited; null creates one. */
  segment: Segment | null;
  onClose: () => void;
}

/**
 * Create/edit segment modal. A created segment leaves the form blank for the next one; an edited one
 * shows the server's message and closes two seconds later.
 */
export function SegmentForm({ segment, onClose }: SegmentFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveSegment();
  const banner = useMessageBox(SEGMENT_MESSAGE_MS);
  const [closing, setClosing] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const editing = segment !== null;

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const {
    register,
    control,
    handleSubmit,
    reset,
    setFocus,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<SegmentRequest>({
    schema: ZSegmentRequest,
    fieldLabels: 'clients.fields',
    defaultValues: initialValues(segment),
  });

  const onSubmit = handleSubmit(async (values) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync({ id: segment?.id, body: values });
      banner.success(response.message || t('clients.feedback.segmentSaved'));
      if (editing) {
        setClosing(true);
        closeTimer.current = setTimeout(onClose, SEGMENT_EDIT_CLOSE_MS);
      } else {
        reset(initialValues(null));
        setFocus('name');
      }
    } catch (error) {
      if (!isApiError(error) || error.status === 0 || error.status >= 500) {
        console.error('Saving the segment failed', error);
        banner.error(t('clients.feedback.internalError'));
        return;
      }
      // A 409 is a duplicate name: on the field, like a 422's messages.
      applyServerErrors(error, { fields: FIELDS, conflictField: 'name' });
      // The server's message on failure, except for a 422 whose messages are listed.
      if (error.status !== 422) banner.error(error.serverMessage ?? t('clients.feedback.internalError'));
    }
  });

  const nameError = fieldError('name');
  const colorError = fieldError('color');
  const rulesError = fieldError('rules');
  const busy = isSubmitting || save.isPending;
  // Only the closing countdown locks the fields: focus goes back to the name after a create.
  const locked = closing;

  return (
    <FormModal
      formId={formId}
      title={editing ? t('clients.segmentForm.editTitle') : t('clients.segmentForm.createTitle')}
      busy={busy}
      submitDisabled={closing}
      cancelLabel={t('clients.segmentForm.cancel')}
      submitLabel={editing ? t('clients.segmentForm.save') : t('clients.segmentForm.create')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <fieldset className="clients-form__fieldset" disabled={locked}>
        <FormField id={ids('name')} label={t('clients.segmentForm.name')} required error={nameError}>
          {(field) => <input {...field} className="hb-input" autoComplete="off" {...register('name')} />}
        </FormField>
        <FormField id={ids('color')} label={t('clients.segmentForm.color')} required error={colorError}>
          {(field) => (
            <Controller
              control={control}
              name="color"
              render={({ field: colorField }) => (
                <ColorPicker
                  id={field.id}
                  ref={colorField.ref}
                  name={colorField.name}
                  value={colorField.value}
                  onChange={colorField.onChange}
                  onBlur={colorField.onBlur}
                  required
                  invalid={Boolean(colorError)}
                  disabled={locked}
                  aria-describedby={field['aria-describedby']}
                />
              )}
            />
          )}
        </FormField>
        <FormField id={ids('rules')} label={t('clients.segmentForm.rules')} required error={rulesError}>
          {(field) => (
            <Textarea
              id={field.id}
              rows={4}
              aria-required="true"
              maxLength={SEGMENT_RULES_MAX}
              showCounter={false}
              placeholder={t('clients.segmentForm.rulesPlaceholder')}
              invalid={Boolean(rulesError)}
              aria-describedby={field['aria-describedby']}
              {...register('rules')}
            />
          )}
        </FormField>
      </fieldset>
    </FormModal>
  );
}
