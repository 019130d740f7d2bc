import {
  CLIENT_PROJECTS_MAX,
  type Client,
  type ClientInput,
  type Segment,
  ZClientRequest,
} from '@hablabot/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  Button,
  MessageBox,
  Modal,
  MultiSelect,
  type MultiSelectOption,
  Textarea,
  useMessageBox,
  ValidationErrorList,
} from '../../components';
import { type FieldErrors, isApiError } from '../../lib/api-client';
import { useSaveClient } from './api';
import { describedBy, FormField, issueMap, issueText } from './form-helpers';

export interface ClientFormValues {
  name: string;
  last_names: string;
  whatsapp_cellphone: string;
  email: string;
  projects: string;
  segments: number[];
}

const FIELDS: readonly (keyof ClientFormValues)[] = [
  'name',
  'last_names',
  'whatsapp_cellphone',
  'email',
  'segments',
  'projects',
];

function initialValues(client: Client | null): ClientFormValues {
  return {
    name: client?.name ?? '',
    last_names: client?.last_names ?? '',
    whatsapp_cellphone: client?.whatsapp_cellphone ?? '',
    email: client?.email ?? '',
    projects: client?.projects ?? '',
    segments: client?.segments.map((segment) => segment.id) ?? [],
  };
}

/** A 409 names its field in `errors` when it can; a duplicate phone is the only conflict a client has. */
function conflictErrors(body: unknown): FieldErrors {
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (errors && typeof errors === 'object') {
    const out: FieldErrors = {};
    for (const [field, value] of Object.entries(errors as Record<string, unknown>)) {
      const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
      if (list.length > 0) out[field] = list;
    }
    if (Object.keys(out).length > 0) return out;
  }
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? { whatsapp_cellphone: [message] } : {};
}

export interface ClientFormProps {
  /** The client being edited; null creates one. */
  client: Client | null;
  segments: readonly Segment[];
  onClose: () => void;
  /** Called with the server's message after a successful save; the page shows it and closes the modal. */
  onSaved: (message: string, client: Client) => void;
  /** Opens the segment form over this one (offered when there is no segment to choose yet). */
  onCreateSegment?: () => void;
}

/** Create/edit client modal (SPEC.md sections 2 and 5), validated with the contract's own schema. */
export function ClientForm({ client, segments, onClose, onSaved, onCreateSegment }: ClientFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveClient();
  const banner = useMessageBox();
  const [serverErrors, setServerErrors] = useState<FieldErrors | null>(null);
  const editing = client !== null;

  // The form holds text while the schema's input is `unknown` for preprocessed fields: same shape, wider type.
  const resolver = useMemo(
    () =>
      zodResolver(ZClientRequest, { error: issueMap(t) }) as unknown as Resolver<
        ClientFormValues,
        unknown,
        ClientInput
      >,
    [t],
  );
  const {
    register,
    control,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ClientFormValues, unknown, ClientInput>({
    resolver,
    defaultValues: initialValues(client),
    mode: 'onTouched',
  });

  const options = useMemo<MultiSelectOption<number>[]>(
    () => segments.map((segment) => ({ value: segment.id, label: segment.name, color: segment.color })),
    [segments],
  );

  const onSubmit = handleSubmit(async (values) => {
    banner.clear();
    setServerErrors(null);
    // Editing keeps the avatar the chat gave the client; the form has no field for it.
    const body: ClientInput = { ...values, avatar: client?.avatar ?? null };
    try {
      const response = await save.mutateAsync({ id: client?.id, body });
      onSaved(response.message || t('clients.feedback.saved'), response.client);
    } catch (error) {
      const fieldErrors: FieldErrors | null = !isApiError(error)
        ? null
        : error.status === 422
          ? error.fieldErrors
          : error.status === 409
            ? conflictErrors(error.body)
            : null;
      if (fieldErrors && Object.keys(fieldErrors).length > 0) {
        if (isApiError(error) && error.status === 422) setServerErrors(fieldErrors);
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
        return;
      }
      console.error('Saving the client failed', error);
      const detail =
        isApiError(error) && error.status !== 500 && error.status !== 0 ? error.serverMessage : null;
      banner.error(detail ? `${t('clients.form.saveError')} (${detail})` : t('clients.form.saveError'));
    }
  });

  const fieldError = (field: keyof ClientFormValues) => {
    const error = errors[field];
    if (!error?.message) return undefined;
    return error.type === 'server' ? error.message : issueText(t, error.message);
  };

  const busy = isSubmitting || save.isPending;
  const nameError = fieldError('name');
  const lastNamesError = fieldError('last_names');
  const phoneError = fieldError('whatsapp_cellphone');
  const emailError = fieldError('email');
  const segmentsError = fieldError('segments');
  const projectsError = fieldError('projects');
  const noSegments = segments.length === 0;

  return (
    <Modal
      open
      onClose={() => {
        if (!busy) onClose();
      }}
      title={editing ? t('clients.form.editTitle') : t('clients.form.createTitle')}
      size="lg"
      closeOnBackdrop={false}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('clients.form.cancel')}
          </Button>
          <Button variant="primary" type="submit" form={formId} busy={busy}>
            {editing ? t('clients.form.save') : t('clients.form.create')}
          </Button>
        </>
      }
    >
      <form id={formId} className="clients-form" onSubmit={onSubmit} noValidate>
        <MessageBox {...banner.props} />
        <ValidationErrorList errors={serverErrors} />
        <div className="clients-form__grid">
          <FormField t={t} id={ids('name')} label={t('clients.form.name')} required error={nameError}>
            <input
              id={ids('name')}
              className="clients-input"
              aria-required="true"
              autoComplete="given-name"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={describedBy(ids('name'), false, Boolean(nameError))}
              {...register('name')}
            />
          </FormField>
          <FormField
            t={t}
            id={ids('last_names')}
            label={t('clients.form.lastNames')}
            required
            error={lastNamesError}
          >
            <input
              id={ids('last_names')}
              className="clients-input"
              aria-required="true"
              autoComplete="family-name"
              aria-invalid={lastNamesError ? true : undefined}
              aria-describedby={describedBy(ids('last_names'), false, Boolean(lastNamesError))}
              {...register('last_names')}
            />
          </FormField>
          <FormField
            t={t}
            id={ids('whatsapp_cellphone')}
            label={t('clients.form.whatsapp')}
            required
            hint={t('clients.form.whatsappHint')}
            error={phoneError}
          >
            <input
              id={ids('whatsapp_cellphone')}
              className="clients-input"
              aria-required="true"
              type="tel"
              inputMode="numeric"
              autoComplete="tel"
              placeholder="5215512345678"
              aria-invalid={phoneError ? true : undefined}
              aria-describedby={describedBy(ids('whatsapp_cellphone'), !phoneError, Boolean(phoneError))}
              {...register('whatsapp_cellphone')}
            />
          </FormField>
          <FormField t={t} id={ids('email')} label={t('clients.form.email')} required error={emailError}>
            <input
              id={ids('email')}
              className="clients-input"
              aria-required="true"
              type="email"
              autoComplete="email"
              aria-invalid={emailError ? true : undefined}
              aria-describedby={describedBy(ids('email'), false, Boolean(emailError))}
              {...register('email')}
            />
          </FormField>
          <FormField
            t={t}
            id={ids('segments')}
            labelId={ids('segments-label')}
            label={t('clients.form.segments')}
            required
            hint={
              noSegments ? (
                <>
                  {t('clients.form.noSegments')}{' '}
                  {onCreateSegment && (
                    <button type="button" className="clients-link-button" onClick={onCreateSegment}>
                      {t('clients.segmentForm.createTitle')}
                    </button>
                  )}
                </>
              ) : undefined
            }
            error={segmentsError}
            className="clients-form__wide"
          >
            <Controller
              control={control}
              name="segments"
              render={({ field }) => (
                <MultiSelect<number>
                  id={ids('segments')}
                  ref={field.ref}
                  options={options}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  coloredChips
                  required
                  invalid={Boolean(segmentsError)}
                  placeholder={t('clients.form.segmentsPlaceholder')}
                  searchPlaceholder={t('clients.form.segmentsSearch')}
                  aria-labelledby={ids('segments-label')}
                  aria-describedby={describedBy(
                    ids('segments'),
                    noSegments && !segmentsError,
                    Boolean(segmentsError),
                  )}
                />
              )}
            />
          </FormField>
          <FormField
            t={t}
            id={ids('projects')}
            label={t('clients.form.projects')}
            optional
            error={projectsError}
            className="clients-form__wide"
          >
            <Textarea
              id={ids('projects')}
              rows={3}
              maxLength={CLIENT_PROJECTS_MAX}
              showCounter={false}
              invalid={Boolean(projectsError)}
              aria-describedby={describedBy(ids('projects'), false, Boolean(projectsError))}
              {...register('projects')}
            />
          </FormField>
        </div>
      </form>
    </Modal>
  );
}
