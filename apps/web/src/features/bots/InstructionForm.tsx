import {
  INSTRUCTION_ASK_MAX,
  INSTRUCTION_REPLY_MAX,
  type Instruction,
  type Segment,
  ZInstructionFields,
} from '@hablabot/contract';
import {
  type ClipboardEvent,
  type ComponentType,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  Button,
  MessageBox,
  MultiSelect,
  type MultiSelectOption,
  Textarea,
  useMessageBox,
  ValidationErrorList,
  FormModal,
} from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { isApiError } from '../../lib/api-client';
import { useSaveInstruction } from './api';
import { ImageIcon } from '../../components/lib/icons';
import { InlineAlert } from './InlineAlert';
import { appendMediaUrl, MEDIA_REFUSAL_MS, type MediaPickerProps, type PickedMedia } from './media';

/** The instruction modal closes this long after a successful save. */
export const INSTRUCTION_FORM_CLOSE_MS = 2000;
/** The banner 'Por favor, corrija los errores antes de continuar' stays this long. */
export const INVALID_BANNER_MS = 3000;

export interface InstructionFormValues {
  ask: string;
  reply: string;
  segments: number[];
}

const FIELDS = ['ask', 'reply', 'segments'] as const;
type LimitedField = 'ask' | 'reply';
const LIMITS: Record<LimitedField, number> = { ask: INSTRUCTION_ASK_MAX, reply: INSTRUCTION_REPLY_MAX };

/** True when inserting `inserted` characters over the current selection would pass `max`. */
export function wouldOverflow(
  element: { value: string; selectionStart: number | null; selectionEnd: number | null },
  inserted: number,
  max: number,
): boolean {
  const start = element.selectionStart ?? element.value.length;
  const end = element.selectionEnd ?? start;
  return element.value.length - Math.abs(end - start) + inserted > max;
}

/** A flag that turns itself off `ms` after each `show()` (a new show restarts the time). */
function useTimedFlag(ms: number): [boolean, () => void, () => void] {
  const [shown, setShown] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(() => {
    clearTimeout(timer.current);
    setShown(true);
    timer.current = setTimeout(() => setShown(false), ms);
  }, [ms]);
  const hide = useCallback(() => {
    clearTimeout(timer.current);
    setShown(false);
  }, []);
  return [shown, show, hide];
}

export interface InstructionFormProps {
  /** The bot the instruction belongs to (the selected bot). */
  botId: number;
  /** The instruction being edited; null creates one. */
  instruction: Instruction | null;
  segments: readonly Segment[];
  onClose: () => void;
  /**
   * The media library picker that 'Agregar media' opens. The picked file's public address is appended
   * to the description (refused past 1000 characters). Without a picker the button is not shown.
   */
  MediaPicker?: ComponentType<MediaPickerProps>;
}

/**
 * Create/edit instruction modal. The rules are checked on submit and then live as the user types; a
 * failed submit shows 'Por favor, corrija los errores antes de continuar' for 3 s. Typing stops at 100
 * characters of name and 1000 of description, and trying to go past shows the field's limit message.
 * A save shows the server's message and closes the modal 2 s later.
 */
export function InstructionForm({
  botId,
  instruction,
  segments,
  onClose,
  MediaPicker,
}: InstructionFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveInstruction();
  const banner = useMessageBox();
  const [closing, setClosing] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [invalidShown, showInvalid, hideInvalid] = useTimedFlag(INVALID_BANNER_MS);
  const [mediaRefused, showMediaRefused] = useTimedFlag(MEDIA_REFUSAL_MS);
  const [mediaOpen, setMediaOpen] = useState(false);
  const [overflow, setOverflow] = useState<Record<LimitedField, boolean>>({ ask: false, reply: false });
  const editing = instruction !== null;

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting, isSubmitted },
  } = useZodForm<InstructionFormValues>({
    schema: ZInstructionFields,
    fieldLabels: 'bots.fields',
    // Checked on submit, then live on every change.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: {
      ask: instruction?.ask ?? '',
      reply: instruction?.reply ?? '',
      segments: instruction?.segments.map(Number) ?? [],
    },
  });

  const ask = useWatch({ control, name: 'ask' }) ?? '';
  const reply = useWatch({ control, name: 'reply' }) ?? '';

  // The limit message stays while the text is at its limit, and goes once it is shorter.
  useEffect(() => {
    setOverflow((current) => {
      const next = {
        ask: current.ask && ask.length >= LIMITS.ask,
        reply: current.reply && reply.length >= LIMITS.reply,
      };
      return next.ask === current.ask && next.reply === current.reply ? current : next;
    });
  }, [ask, reply]);

  const flagOverflow = (field: LimitedField) =>
    setOverflow((current) => (current[field] ? current : { ...current, [field]: true }));

  const limitHandlers = (field: LimitedField) => ({
    onKeyDown: (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const inserts = event.key.length === 1 || (event.key === 'Enter' && field === 'reply');
      if (!inserts || event.ctrlKey || event.metaKey || event.altKey || event.nativeEvent.isComposing) return;
      if (wouldOverflow(event.currentTarget, 1, LIMITS[field])) flagOverflow(field);
    },
    onPaste: (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const pasted = event.clipboardData.getData('text/plain');
      if (wouldOverflow(event.currentTarget, pasted.length, LIMITS[field])) flagOverflow(field);
    },
  });

  const options = useMemo<MultiSelectOption<number>[]>(
    () => segments.map((segment) => ({ value: segment.id, label: segment.name, color: segment.color })),
    [segments],
  );

  const attachMedia = (item: PickedMedia) => {
    const result = appendMediaUrl(getValues('reply'), item.url);
    setMediaOpen(false);
    if (!result.ok) {
      showMediaRefused();
      return;
    }
    setValue('reply', result.reply, { shouldDirty: true, shouldValidate: isSubmitted });
  };

  const onSubmit = handleSubmit(
    async (values) => {
      hideInvalid();
      banner.clear();
      clearServerErrors();
      try {
        const response = await save.mutateAsync({
          id: instruction?.id,
          body: { bot_id: botId, ask: values.ask, reply: values.reply, segments: values.segments },
        });
        banner.success(response.message || t('bots.feedback.instructionSaved'));
        setClosing(true);
        closeTimer.current = setTimeout(onClose, INSTRUCTION_FORM_CLOSE_MS);
      } catch (error) {
        if (applyServerErrors(error, { fields: FIELDS })) {
          showInvalid();
          return;
        }
        console.error('Saving the instruction failed', error);
        const detail =
          isApiError(error) && error.status > 0 && error.status < 500 ? error.serverMessage : null;
        banner.error(detail || t('bots.feedback.internalError'));
      }
    },
    () => showInvalid(),
  );

  const busy = isSubmitting || save.isPending;
  const errorOf = (field: LimitedField) =>
    fieldError(field) ?? (overflow[field] ? t(`bots.issues.${field}_max`) : undefined);
  const askError = errorOf('ask');
  const replyError = errorOf('reply');
  const segmentsError = fieldError('segments');
  const askAtLimit = ask.length >= INSTRUCTION_ASK_MAX;

  return (
    <>
      <FormModal
        formId={formId}
        title={editing ? t('bots.instructionForm.editTitle') : t('bots.instructionForm.createTitle')}
        size="lg"
        busy={busy}
        submitDisabled={closing}
        cancelLabel={t('bots.instructionForm.cancel')}
        submitLabel={editing ? t('bots.instructionForm.save') : t('bots.instructionForm.create')}
        onClose={onClose}
        onSubmit={onSubmit}
      >
        {invalidShown && <InlineAlert message={t('bots.instructionForm.invalid')} />}
        <MessageBox {...banner.props} />
        <ValidationErrorList errors={serverErrors} />
        <fieldset className="bots-form__fieldset" disabled={closing}>
          <FormField id={ids('ask')} label={t('bots.instructionForm.ask')} required error={askError}>
            {(field) => (
              <div className="hb-textarea">
                <input
                  {...field}
                  aria-describedby={[field['aria-describedby'], ids('ask-counter')].filter(Boolean).join(' ')}
                  className="hb-input"
                  autoComplete="off"
                  maxLength={INSTRUCTION_ASK_MAX}
                  placeholder={t('bots.instructionForm.askPlaceholder')}
                  {...register('ask')}
                  {...limitHandlers('ask')}
                />
                <div
                  className={`hb-textarea__counter${askAtLimit ? ' hb-textarea__counter--limit' : ''}`}
                  id={ids('ask-counter')}
                >
                  <span aria-hidden="true">
                    {t('widgets.textarea.counter', { count: ask.length, max: INSTRUCTION_ASK_MAX })}
                  </span>
                  <span className="hb-visually-hidden">
                    {askAtLimit
                      ? t('widgets.textarea.limitReached', { max: INSTRUCTION_ASK_MAX })
                      : t('widgets.textarea.counterLabel', { count: ask.length, max: INSTRUCTION_ASK_MAX })}
                  </span>
                </div>
              </div>
            )}
          </FormField>
          <FormField id={ids('reply')} label={t('bots.instructionForm.reply')} required error={replyError}>
            {(field) => (
              <Textarea
                id={field.id}
                rows={6}
                aria-required="true"
                maxLength={INSTRUCTION_REPLY_MAX}
                placeholder={t('bots.instructionForm.replyPlaceholder')}
                invalid={Boolean(replyError)}
                aria-describedby={field['aria-describedby']}
                {...register('reply')}
                {...limitHandlers('reply')}
              />
            )}
          </FormField>
          {MediaPicker && (
            <div className="bots-form__media">
              <Button size="sm" variant="secondary" onClick={() => setMediaOpen(true)}>
                <ImageIcon size={15} />
                {t('bots.instructionForm.addMedia')}
              </Button>
              {mediaRefused && (
                <p className="bots-form__media-refused" role="alert">
                  {t('bots.instructionForm.mediaTooLong')}
                </p>
              )}
            </div>
          )}
          <FormField
            id={ids('segments')}
            labelId={ids('segments-label')}
            label={t('bots.instructionForm.segments')}
            required
            hint={segments.length === 0 ? t('bots.instructionForm.noSegments') : undefined}
            error={segmentsError}
          >
            {(field) => (
              <Controller
                control={control}
                name="segments"
                render={({ field: segmentsField }) => (
                  <MultiSelect<number>
                    id={field.id}
                    ref={segmentsField.ref}
                    options={options}
                    value={segmentsField.value}
                    onChange={segmentsField.onChange}
                    onBlur={segmentsField.onBlur}
                    coloredChips
                    required
                    invalid={Boolean(segmentsError)}
                    disabled={closing}
                    placeholder={t('bots.instructionForm.segmentsPlaceholder')}
                    searchPlaceholder={t('bots.instructionForm.segmentsSearch')}
                    aria-labelledby={ids('segments-label')}
                    aria-describedby={field['aria-describedby']}
                  />
                )}
              />
            )}
          </FormField>
        </fieldset>
      </FormModal>
      {MediaPicker && (
        <MediaPicker open={mediaOpen} onClose={() => setMediaOpen(false)} onPick={attachMedia} />
      )}
    </>
  );
}
