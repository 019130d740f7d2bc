import {
  CLIENT_PROJECTS_MAX,
  type Client,
  type ClientInput,
  type Segment,
  ZClientRequest,
} from '@hablabot/contract';
import { useId, useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
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
import { useSaveClient } from './api';

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

/** Create/edit client modal, validated with the contract's own schema. */
export function ClientForm({ client, segments, onClose, onSaved, onCreateSegment }: ClientFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveClient();
  const banner = useMessageBox();
  const editing = client !== null;

  const {
    register,
    control,
    handleSubmit,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<ClientFormValues, ClientInput>({
    schema: ZClientRequest,
    fieldLabels: 'clients.fields',
    defaultValues: initialValues(client),
  });

  const options = useMemo<MultiSelectOption<number>[]>(
    () => segments.map((segment) => ({ value: segment.id, label: segment.name, color: segment.color })),
    [segments],
  );

  const onSubmit = handleSubmit(async (values) => {
    banner.clear();
    clearServerErrors();
    // Editing keeps the avatar the chat gave the client; the form has no field for it.
    const body: ClientInput = { ...values, avatar: client?.avatar ?? null };
    try {
      const response = await save.mutateAsync({ id: client?.id, body });
      onSaved(response.message || t('clients.feedback.saved'), response.client);
    } catch (error) {
      // A duplicate phone is the only conflict a client has.
      if (applyServerErrors(error, { fields: FIELDS, conflictField: 'whatsapp_cellphone' })) return;
      console.error('Saving the client failed', error);
      const detail =
        isApiError(error) && error.status !== 500 && error.status !== 0 ? error.serverMessage : null;
      banner.error(detail ? `${t('clients.form.saveError')} (${detail})` : t('clients.form.saveError'));
    }
  });

  const busy = isSubmitting || save.isPending;
  const nameError = fieldError('name');
  const lastNamesError = fieldError('last_names');
  const phoneError = fieldError('whatsapp_cellphone');
  const emailError = fieldError('email');
  const segmentsError = fieldError('segments');
  const projectsError = fieldError('projects');
  const noSegments = segments.length === 0;

  return (
    <FormModal
      formId={formId}
      title={editing ? t('clients.form.editTitle') : t('clients.form.createTitle')}
      size="lg"
      busy={busy}
      cancelLabel={t('clients.form.cancel')}
      submitLabel={editing ? t('clients.form.save') : t('clients.form.create')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <div className="clients-form__grid">
        <FormField id={ids('name')} label={t('clients.form.name')} required error={nameError}>
          {(field) => (
            <input {...field} className="hb-input" autoComplete="given-name" {...register('name')} />
          )}
        </FormField>
        <FormField id={ids('last_names')} label={t('clients.form.lastNames')} required error={lastNamesError}>
          {(field) => (
            <input {...field} className="hb-input" autoComplete="family-name" {...register('last_names')} />
          )}
        </FormField>
        <FormField
          id={ids('whatsapp_cellphone')}
          label={t('clients.form.whatsapp')}
          required
          hint={t('clients.form.whatsappHint')}
          error={phoneError}
        >
          {(field) => (
            <input
              {...field}
              className="hb-input"
              type="tel"
              inputMode="numeric"
              autoComplete="tel"
              placeholder="5215512345678"
              {...register('whatsapp_cellphone')}
            />
          )}
        </FormField>
        <FormField id={ids('email')} label={t('clients.form.email')} required error={emailError}>
          {(field) => (
            <input {...field} className="hb-input" type="email" autoComplete="email" {...register('email')} />
          )}
        </FormField>
        <FormField
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
                  placeholder={t('clients.form.segmentsPlaceholder')}
                  searchPlaceholder={t('clients.form.segmentsSearch')}
                  aria-labelledby={ids('segments-label')}
                  aria-describedby={field['aria-describedby']}
                />
              )}
            />
          )}
        </FormField>
        <FormField
          id={ids('projects')}
          label={t('clients.form.projects')}
          optional
          error={projectsError}
          className="clients-form__wide"
        >
          {(field) => (
            <Textarea
              id={field.id}
              rows={3}
              maxLength={CLIENT_PROJECTS_MAX}
              showCounter={false}
              invalid={Boolean(projectsError)}
              aria-describedby={field['aria-describedby']}
              {...register('projects')}
            />
          )}
        </FormField>
      </div>
    </FormModal>
  );
}
