import { SEGMENT_RULES_MAX, type Segment, type SegmentRequest, ZSegmentRequest } from '@hablabot/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  Button,
  ColorPicker,
  DEFAULT_SEGMENT_COLOR,
  MessageBox,
  Modal,
  Textarea,
  useMessageBox,
  ValidationErrorList,
} from '../../components';
import { type FieldErrors, isApiError } from '../../lib/api-client';
import { useSaveSegment } from './api';
import { describedBy, FormField, issueMap, issueText } from './form-helpers';

/** SPEC.md sections 4, 8 and 9: the segment message clears after 4 s; an edited segment's modal closes after 2 s. */
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
  const [serverErrors, setServerErrors] = useState<FieldErrors | null>(null);
  const [closing, setClosing] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const editing = segment !== null;

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const resolver = useMemo(() => zodResolver(ZSegmentRequest, { error: issueMap(t) }), [t]);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<SegmentRequest>({
    resolver,
    defaultValues: initialValues(segment),
    mode: 'onTouched',
  });

  const onSubmit = handleSubmit(async (values) => {
    banner.clear();
    setServerErrors(null);
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
      const fieldErrors =
        error.status === 422
          ? error.fieldErrors
          : error.status === 409 && error.serverMessage
            ? { name: [error.serverMessage] }
            : {};
      if (error.status === 422) setServerErrors(fieldErrors);
      let focused = false;
      for (const field of FIELDS) {
        const message = fieldErrors[field]?.[0];
        if (!message) continue;
        setError(field, { type: 'server', message });
        if (!focused) {
          setFocus(field);
          focused = true;
        }
      }
      if (error.status !== 422) banner.error(error.serverMessage ?? t('clients.feedback.internalError'));
    }
  });

  const fieldError = (field: (typeof FIELDS)[number]) => {
    const error = errors[field];
    if (!error?.message) return undefined;
    return error.type === 'server' ? error.message : issueText(t, error.message);
  };
  const nameError = fieldError('name');
  const colorError = fieldError('color');
  const rulesError = fieldError('rules');
  const busy = isSubmitting || save.isPending;
  // Only the closing countdown locks the fields: focus goes back to the name after a create.
  const locked = closing;

  return (
    <Modal
      open
      onClose={() => {
        if (!busy) onClose();
      }}
      title={editing ? t('clients.segmentForm.editTitle') : t('clients.segmentForm.createTitle')}
      closeOnBackdrop={false}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('clients.segmentForm.cancel')}
          </Button>
          <Button variant="primary" type="submit" form={formId} busy={busy} disabled={closing}>
            {editing ? t('clients.segmentForm.save') : t('clients.segmentForm.create')}
          </Button>
        </>
      }
    >
      <form id={formId} className="clients-form" onSubmit={onSubmit} noValidate>
        <MessageBox {...banner.props} />
        <ValidationErrorList errors={serverErrors} />
        <fieldset className="clients-form__fieldset" disabled={locked}>
          <FormField t={t} id={ids('name')} label={t('clients.segmentForm.name')} required error={nameError}>
            <input
              id={ids('name')}
              className="clients-input"
              aria-required="true"
              autoComplete="off"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={describedBy(ids('name'), false, Boolean(nameError))}
              {...register('name')}
            />
          </FormField>
          <FormField
            t={t}
            id={ids('color')}
            label={t('clients.segmentForm.color')}
            required
            error={colorError}
          >
            <Controller
              control={control}
              name="color"
              render={({ field }) => (
                <ColorPicker
                  id={ids('color')}
                  ref={field.ref}
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  required
                  invalid={Boolean(colorError)}
                  disabled={locked}
                  aria-describedby={describedBy(ids('color'), false, Boolean(colorError))}
                />
              )}
            />
          </FormField>
          <FormField
            t={t}
            id={ids('rules')}
            label={t('clients.segmentForm.rules')}
            required
            error={rulesError}
          >
            <Textarea
              id={ids('rules')}
              rows={4}
              aria-required="true"
              maxLength={SEGMENT_RULES_MAX}
              showCounter={false}
              placeholder={t('clients.segmentForm.rulesPlaceholder')}
              invalid={Boolean(rulesError)}
              aria-describedby={describedBy(ids('rules'), false, Boolean(rulesError))}
              {...register('rules')}
            />
          </FormField>
        </fieldset>
      </form>
    </Modal>
  );
}
