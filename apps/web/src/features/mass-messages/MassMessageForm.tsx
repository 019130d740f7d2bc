import {
  type ClientList,
  MASS_SCHEDULE_MAX_AHEAD_MS,
  MASS_SCHEDULE_PAST_GRACE_MS,
  type MassRecipientToken,
  type MessageTemplate,
  massRecipientTokenText,
  TEMPLATE_PARAMETER_MAX,
  ZMassMessageRequest,
} from '@hablabot/contract';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button, MessageBox, useMessageBox, ValidationErrorList } from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { isApiError } from '../../lib/api-client';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { fillTemplate, templatePlaceholders } from '../chat/chat-utils';
import { MediaPickerDialog } from '../media/MediaPickerDialog';
import { useMassPreview, useSendMassMessage } from './api';
import { ListSelect } from './ListSelect';
import { type HeaderFile, HeaderFileField, ParameterField } from './MassMessageFields';
import { MassPreview } from './MassPreview';
import { DailyLimitNotice } from './DailyLimit';
import { localInputToUtc, localTimeZone, toLocalInput } from './schedule';
import { approvedTemplates, headerMediaKind, insertAt, templateBody } from './templates';

/** The success message stays 4 s; the 'Enviando mensaje...' note stays until the answer. */
export const SEND_FEEDBACK_MS = 4000;

const FIELDS = ['name', 'message_template_id', 'list_id', 'schedule'] as const;

/** The form's own fields (the placeholders' values are kept apart: their names are numbers). */
const ZSendForm = ZMassMessageRequest.pick({
  name: true,
  message_template_id: true,
  list_id: true,
  schedule: true,
}).superRefine((values, ctx) => {
  if (!values.schedule) return;
  const utc = localInputToUtc(values.schedule);
  if (utc && new Date(utc).getTime() < Date.now() - MASS_SCHEDULE_PAST_GRACE_MS) {
    ctx.addIssue({ code: 'custom', path: ['schedule'], message: 'mass.schedule_past' });
  }
  if (utc && new Date(utc).getTime() > Date.now() + MASS_SCHEDULE_MAX_AHEAD_MS) {
    ctx.addIssue({ code: 'custom', path: ['schedule'], message: 'mass.schedule_far' });
  }
});

interface SendFormValues {
  name: string;
  message_template_id: string;
  list_id: string;
  schedule: string;
}

const EMPTY: SendFormValues = { name: '', message_template_id: '', list_id: '', schedule: '' };

export interface MassMessageFormProps {
  templates: readonly MessageTemplate[];
  /** The lists the page has loaded; the form searches the server for the others. */
  lists: readonly ClientList[];
  /** True when the company has more lists than `lists`. */
  hasMoreLists?: boolean;
  /** After the server accepted a send (the history reloads). */
  onSent?: () => void;
}

/** 'Nuevo envío': an approved template to every client of a list, now or at a set time. */
export function MassMessageForm({ templates, lists, hasMoreLists = false, onSent }: MassMessageFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const send = useSendMassMessage();
  const banner = useMessageBox();
  const approved = useMemo(() => approvedTemplates(templates), [templates]);
  const [values, setValues] = useState<Record<string, string>>({});
  const [parameterErrors, setParameterErrors] = useState<Record<string, string>>({});
  const [headerFile, setHeaderFile] = useState<HeaderFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [acceptOverflow, setAcceptOverflow] = useState(false);
  const [retryCapped, setRetryCapped] = useState(false);
  const [overflowError, setOverflowError] = useState<string | undefined>();
  const inputs = useRef(new Map<string, HTMLInputElement>());

  const {
    register,
    control,
    handleSubmit,
    reset,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<SendFormValues>({
    schema: ZSendForm,
    fieldLabels: 'massMessages.fieldNames',
    defaultValues: EMPTY,
    messages: (issue, translate) => {
      const label = translate(`massMessages.fieldNames.${issue.field}`, { defaultValue: issue.field });
      if (issue.message === 'required' || issue.message === 'validation.id')
        return translate('form.issues.required', { field: label });
      return undefined;
    },
  });

  const templateId = Number(useWatch({ control, name: 'message_template_id' })) || null;
  const listId = Number(useWatch({ control, name: 'list_id' })) || null;
  const schedule = useWatch({ control, name: 'schedule' });
  const template = approved.find((candidate) => candidate.id === templateId) ?? null;
  const body = templateBody(template);
  const placeholders = useMemo(() => templatePlaceholders(body), [body]);
  const mediaKind = headerMediaKind(template);
  const [list, setList] = useState<ClientList | null>(null);

  // A new template starts with empty values and no file.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the template changes.
  useEffect(() => {
    setValues({});
    setParameterErrors({});
    setHeaderFile(null);
    setFileError(null);
  }, [templateId]);

  const bodyParameters = useMemo(
    () => Object.fromEntries(placeholders.map((key) => [key, (values[key] ?? '').trim()])),
    [placeholders, values],
  );
  const complete = placeholders.every((key) => bodyParameters[key] !== '');
  // Memoised: the debounce restarts whenever its value changes identity.
  const previewRequest = useMemo(
    () =>
      template && listId && complete
        ? { message_template_id: template.id, list_id: listId, bodyParameters }
        : null,
    [template, listId, complete, bodyParameters],
  );
  const previewBody = useDebouncedValue(previewRequest, 400);
  const preview = useMassPreview(previewBody);

  const setValue = (key: string, value: string) => {
    setValues((current) => ({ ...current, [key]: value.slice(0, TEMPLATE_PARAMETER_MAX) }));
    if (parameterErrors[key]) setParameterErrors(({ [key]: _, ...rest }) => rest);
  };

  const insertToken = (key: string, token: MassRecipientToken) => {
    const input = inputs.current.get(key);
    const current = values[key] ?? '';
    const { value, caret } = insertAt(
      current,
      massRecipientTokenText(token),
      input?.selectionStart,
      input?.selectionEnd,
    );
    setValue(key, value);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(caret, caret);
    });
  };

  const checkParameters = (): boolean => {
    const missing: Record<string, string> = {};
    for (const key of placeholders) {
      if (!bodyParameters[key])
        missing[key] = t('massMessages.form.parameterRequired', { placeholder: `{{${key}}}` });
    }
    setParameterErrors(missing);
    const fileMissing = mediaKind !== null && headerFile === null;
    setFileError(fileMissing ? t('massMessages.form.fileRequired') : null);
    const first = placeholders.find((key) => missing[key]);
    if (first) inputs.current.get(first)?.focus();
    return !first && !fileMissing;
  };

  const onSubmit = handleSubmit(
    async (form) => {
      if (!template || !checkParameters()) return;
      clearServerErrors();
      banner.show('info', t('massMessages.feedback.sending'));
      try {
        const scheduleUtc = form.schedule ? (localInputToUtc(form.schedule) ?? undefined) : undefined;
        const response = await send.mutateAsync({
          name: form.name.trim(),
          message_template_id: Number(form.message_template_id),
          list_id: Number(form.list_id),
          message: fillTemplate(body, bodyParameters),
          bodyParameters,
          media_id: headerFile?.source === 'library' ? headerFile.item.id : undefined,
          file: headerFile?.source === 'upload' ? headerFile.file : undefined,
          schedule: scheduleUtc,
          time_zone: scheduleUtc ? localTimeZone() : undefined,
          accept_tier_overflow: acceptOverflow || undefined,
          retry_capped: retryCapped || undefined,
        });
        if (response.status !== 201 || !response.data?.success) {
          banner.error(response.data?.message || t('massMessages.feedback.unknownError'));
          return;
        }
        banner.success(t('massMessages.feedback.sent'), SEND_FEEDBACK_MS);
        reset(EMPTY);
        setValues({});
        setHeaderFile(null);
        onSent?.();
      } catch (error) {
        if (!isApiError(error)) {
          console.error('The mass send failed', error);
          banner.error(t('massMessages.feedback.unknownError'));
          return;
        }
        if (error.status === 422) {
          applyServerErrors(error, { fields: FIELDS });
          const own: Record<string, string> = {};
          for (const [field, messages] of Object.entries(error.fieldErrors)) {
            const match = /^bodyParameters\.(\d+)$/.exec(field);
            if (match?.[1] && messages[0]) own[match[1]] = messages[0];
            if ((field === 'file' || field === 'media_id') && messages[0]) setFileError(messages[0]);
            if (field === 'accept_tier_overflow') setOverflowError(messages[0]);
          }
          setParameterErrors(own);
        }
        banner.error(
          error.status > 0 && error.status < 500 && error.serverMessage
            ? error.serverMessage
            : t('massMessages.feedback.sendError'),
        );
      }
    },
    () => checkParameters(),
  );

  const busy = isSubmitting || send.isPending;
  const zone = localTimeZone();
  const previewClient = preview.data?.data.client;
  const previewText =
    previewBody && preview.data && !preview.isError ? preview.data.data.text : fillTemplate(body, values);

  return (
    <section className="mm-card mm-send" aria-labelledby={ids('heading')}>
      <h2 id={ids('heading')} className="mm-card__heading">
        {t('massMessages.form.heading')}
      </h2>
      <div className="mm-send__layout">
        <form id={formId} className="hb-form mm-send__form" onSubmit={onSubmit} noValidate>
          <MessageBox {...banner.props} />
          <ValidationErrorList errors={serverErrors} />
          <FormField id={ids('name')} label={t('massMessages.form.name')} required error={fieldError('name')}>
            {(field) => (
              <input
                {...field}
                className="hb-input"
                autoComplete="off"
                maxLength={120}
                placeholder={t('massMessages.form.namePlaceholder')}
                {...register('name')}
              />
            )}
          </FormField>
          <FormField
            id={ids('template')}
            label={t('massMessages.form.template')}
            required
            error={fieldError('message_template_id')}
            hint={approved.length === 0 ? t('massMessages.form.noTemplates') : undefined}
          >
            {(field) => (
              <select {...field} className="hb-input" {...register('message_template_id')}>
                <option value="">{t('massMessages.form.templatePlaceholder')}</option>
                {approved.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name} ({option.language})
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            id={ids('list')}
            label={t('massMessages.form.list')}
            required
            error={fieldError('list_id')}
          >
            {(field) => (
              <ListSelect
                field={field}
                registration={register('list_id')}
                listId={listId}
                lists={lists}
                hasMore={hasMoreLists}
                onChosen={setList}
              />
            )}
          </FormField>

          {placeholders.map((key) => (
            <ParameterField
              key={key}
              id={ids(`parameter-${key}`)}
              placeholderKey={key}
              value={values[key] ?? ''}
              error={parameterErrors[key]}
              inputRef={(element) => {
                if (element) inputs.current.set(key, element);
                else inputs.current.delete(key);
              }}
              onChange={(value) => setValue(key, value)}
              onInsert={(token) => insertToken(key, token)}
            />
          ))}

          {mediaKind && (
            <HeaderFileField
              id={ids('file')}
              mediaKind={mediaKind}
              headerFile={headerFile}
              error={fileError ?? undefined}
              onOpenLibrary={() => setLibraryOpen(true)}
              onUpload={(file) => {
                setHeaderFile({ source: 'upload', file });
                setFileError(null);
              }}
              onRemove={() => setHeaderFile(null)}
            />
          )}

          <FormField
            id={ids('schedule')}
            label={t('massMessages.form.schedule')}
            optional
            hint={t('massMessages.form.scheduleHint', { zone })}
            error={fieldError('schedule')}
          >
            {(field) => (
              <input
                {...field}
                type="datetime-local"
                className="hb-input"
                min={toLocalInput(new Date())}
                {...register('schedule')}
              />
            )}
          </FormField>

          <DailyLimitNotice
            listId={listId}
            acceptOverflow={acceptOverflow}
            onAcceptOverflow={setAcceptOverflow}
            retryCapped={retryCapped}
            onRetryCapped={setRetryCapped}
            error={acceptOverflow ? undefined : overflowError}
          />

          <div className="mm-send__submit">
            <Button type="submit" variant="primary" busy={busy}>
              {schedule ? t('massMessages.form.scheduleAction') : t('massMessages.form.send')}
            </Button>
          </div>
        </form>

        <MassPreview
          headingId={ids('preview')}
          template={template}
          asked={Boolean(previewBody)}
          client={previewClient}
          noClient={Boolean(previewBody && preview.isSuccess && !previewClient && list)}
          headerFile={headerFile}
          text={previewText}
        />
      </div>
      {mediaKind && (
        <MediaPickerDialog
          open={libraryOpen}
          onClose={() => setLibraryOpen(false)}
          kinds={[mediaKind]}
          onSelect={(item) => {
            setHeaderFile({ source: 'library', item });
            setFileError(null);
          }}
        />
      )}
    </section>
  );
}
