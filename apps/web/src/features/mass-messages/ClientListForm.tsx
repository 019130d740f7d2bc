import {
  CLIENT_LIST_NAME_MAX,
  type ClientList,
  type ClientListRequest,
  type Segment,
  ZClientListRequest,
} from '@hablabot/contract';
import { useEffect, useId, useMemo, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  Button,
  Chip,
  formatNumber,
  MessageBox,
  useMessageBox,
  ValidationErrorList,
  FormModal,
} from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { isApiError } from '../../lib/api-client';
import { useListMemberIds, useListMembers, useSaveClientList } from './api';
import { ClientPicker, clientLabel, PICKER_CHIPS_SHOWN } from './ClientPicker';

const FIELDS = ['name', 'client_ids', 'segment_ids'] as const;

/** A list needs a name and at least one client, chosen one by one or through a segment. */
const ZListForm = ZClientListRequest.superRefine((values, ctx) => {
  if (values.client_ids.length === 0 && (values.segment_ids ?? []).length === 0) {
    ctx.addIssue({ code: 'custom', path: ['client_ids'], message: 'mass.clients_required' });
  }
});

interface ListFormValues {
  name: string;
  client_ids: number[];
  segment_ids: number[];
}

export interface ClientListFormProps {
  /** The list being edited; null creates one. */
  list: ClientList | null;
  segments: readonly Segment[];
  onClose: () => void;
  /** After a save, with the text to show. */
  onSaved: (message: string) => void;
}

/** Create/edit a client list: its name and its clients (searched on the server), or whole segments. */
export function ClientListForm({ list, segments, onClose, onSaved }: ClientListFormProps) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveClientList();
  const banner = useMessageBox();
  const editing = list !== null;
  const [labels, setLabels] = useState<ReadonlyMap<number, string>>(() => new Map());
  const [segmentChoice, setSegmentChoice] = useState('');
  // The names of the first members (the chips shown); the rest are counted.
  const members = useListMembers(list?.id ?? null, PICKER_CHIPS_SHOWN);
  // All the member ids of the list being edited (a PUT names them in full), read page by page.
  const memberIds = useListMemberIds(list?.id ?? null);

  useEffect(() => {
    const rows = members.data?.data.data;
    if (!rows) return;
    setLabels((current) => {
      const next = new Map(current);
      for (const row of rows) next.set(row.id, clientLabel(row));
      return next;
    });
  }, [members.data]);

  const {
    register,
    control,
    handleSubmit,
    setValue,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<ListFormValues, ClientListRequest>({
    schema: ZListForm,
    fieldLabels: 'massMessages.fieldNames',
    mode: 'onSubmit',
    defaultValues: { name: list?.name ?? '', client_ids: [], segment_ids: [] },
    messages: (issue, translate) =>
      issue.message === 'mass.clients_required' ? translate('mass.issues.clients_required') : undefined,
  });
  const segmentIds = useWatch({ control, name: 'segment_ids' });
  const loadedIds = memberIds.data;
  useEffect(() => {
    if (loadedIds) setValue('client_ids', loadedIds, { shouldValidate: false });
  }, [loadedIds, setValue]);
  useEffect(() => {
    if (!memberIds.error) return;
    console.error('Loading the list members failed', memberIds.error);
    banner.error(t('massMessages.feedback.membersError'));
  }, [memberIds.error, banner.error, t]);
  const segmentById = useMemo(() => new Map(segments.map((segment) => [segment.id, segment])), [segments]);

  const onSubmit = handleSubmit(async (values) => {
    banner.clear();
    clearServerErrors();
    try {
      await save.mutateAsync({ id: list?.id, body: values });
      onSaved(t('massMessages.feedback.listOk'));
    } catch (error) {
      if (!isApiError(error) || error.status === 0 || error.status >= 500) {
        console.error('Saving the client list failed', error);
        banner.error(t('massMessages.feedback.listInternalError'));
        return;
      }
      if (applyServerErrors(error, { fields: FIELDS, conflictField: 'name' })) return;
      banner.error(t('massMessages.feedback.listError'));
    }
  });

  const addSegment = () => {
    const id = Number(segmentChoice);
    if (!id || segmentIds.includes(id)) return;
    setValue('segment_ids', [...segmentIds, id], { shouldValidate: false });
    setSegmentChoice('');
  };

  // An edited list can be saved once all its members are known.
  const busy = isSubmitting || save.isPending || (editing && !loadedIds);
  const clientsError = fieldError('client_ids');
  const available = segments.filter((segment) => !segmentIds.includes(segment.id));

  const segmentShortcut =
    segments.length > 0 ? (
      <div className="mm-segments">
        <label className="mm-segments__label" htmlFor={ids('segment')}>
          {t('massMessages.listForm.segment')}
        </label>
        <div className="mm-segments__row">
          <select
            id={ids('segment')}
            className="hb-input"
            value={segmentChoice}
            onChange={(event) => setSegmentChoice(event.target.value)}
          >
            <option value="">{t('massMessages.listForm.segmentPlaceholder')}</option>
            {available.map((segment) => (
              <option key={segment.id} value={segment.id}>
                {segment.name}
                {segment.clients_count !== undefined
                  ? ` (${formatNumber(segment.clients_count, i18n.language)})`
                  : ''}
              </option>
            ))}
          </select>
          <Button size="sm" variant="secondary" onClick={addSegment} disabled={!segmentChoice}>
            {t('massMessages.listForm.segmentAdd')}
          </Button>
        </div>
        {segmentIds.length > 0 && (
          <ul className="mm-picker__chips" aria-label={t('massMessages.listForm.segmentsChosen')}>
            {segmentIds.map((id) => {
              const segment = segmentById.get(id);
              const name = segment?.name ?? String(id);
              return (
                <li key={id}>
                  <Chip
                    size="sm"
                    label={
                      segment?.clients_count !== undefined
                        ? `${name} · ${t('massMessages.lists.count', {
                            count: segment.clients_count,
                            formatted: formatNumber(segment.clients_count, i18n.language),
                          })}`
                        : name
                    }
                    color={segment?.color}
                    onRemove={() =>
                      setValue(
                        'segment_ids',
                        segmentIds.filter((other) => other !== id),
                      )
                    }
                    removeLabel={t('massMessages.picker.remove', { name })}
                  />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    ) : null;

  return (
    <FormModal
      formId={formId}
      title={editing ? t('massMessages.listForm.editTitle') : t('massMessages.listForm.createTitle')}
      size="lg"
      busy={busy}
      cancelLabel={t('massMessages.listForm.cancel')}
      submitLabel={editing ? t('massMessages.listForm.save') : t('massMessages.listForm.create')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <FormField id={ids('name')} label={t('massMessages.listForm.name')} required error={fieldError('name')}>
        {(field) => (
          <input
            {...field}
            className="hb-input"
            autoComplete="off"
            maxLength={CLIENT_LIST_NAME_MAX}
            {...register('name')}
          />
        )}
      </FormField>
      <FormField id={ids('clients')} label={t('massMessages.listForm.clients')} required error={clientsError}>
        {(field) => (
          <Controller
            control={control}
            name="client_ids"
            render={({ field: clientsField }) => (
              <ClientPicker
                id={field.id}
                value={clientsField.value}
                onChange={clientsField.onChange}
                labels={labels}
                onLabels={(entries) =>
                  setLabels((current) => {
                    const next = new Map(current);
                    for (const [id, label] of entries) next.set(id, label);
                    return next;
                  })
                }
                invalid={Boolean(clientsError)}
                describedBy={field['aria-describedby']}
                extra={segmentShortcut}
              />
            )}
          />
        )}
      </FormField>
    </FormModal>
  );
}
