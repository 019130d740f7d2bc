import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  Button,
  Chip,
  DataTable,
  type DataTableColumn,
  formatNumber,
  MessageBox,
  Modal,
  MultiSelect,
  Textarea,
  useConfirm,
  useMessageBox,
  ValidationErrorList,
} from '../../components';
import { type GalleryClient, generateClients, SEGMENTS } from './data';
import { Field, SAMPLE_422, SEGMENT_OPTIONS, Section } from './gallery-parts';

const ROW_COUNT = 10_000;
const SEGMENT_BY_ID = new Map(SEGMENTS.map((segment) => [segment.id, segment]));

// ---------------------------------------------------------------------------------------------------
// DataTable with 10,000 clients, wired like the clients screen (/admin/clients)

interface ClientFormValues {
  name: string;
  last_names: string;
  whatsapp_cellphone: string;
  email: string;
  segments: number[];
  projects: string;
}

export function ClientsTableSection() {
  const { t, i18n } = useTranslation();
  const g = (key: string, options?: Record<string, unknown>) => t(`gallery.${key}`, options);
  const [clients, setClients] = useState(() => generateClients(ROW_COUNT));
  const [editing, setEditing] = useState<GalleryClient | 'new' | null>(null);
  const [loading, setLoading] = useState(false);
  const [chatWith, setChatWith] = useState<GalleryClient | null>(null);
  const box = useMessageBox();
  const confirm = useConfirm();

  const columns = useMemo<DataTableColumn<GalleryClient>[]>(
    () => [
      { id: 'id', header: 'id', accessor: 'id', width: 80 },
      {
        id: 'name',
        header: t('gallery.columns.name'),
        accessor: (c) => `${c.name} ${c.last_names}`,
        width: 250,
        primary: true,
        cell: (c) => (
          <span className="gallery__person">
            <Avatar name={`${c.name} ${c.last_names}`} size={30} decorative />
            <span>
              {c.name} {c.last_names}
            </span>
          </span>
        ),
      },
      {
        id: 'segments',
        header: t('gallery.columns.segment'),
        searchValue: (c) => c.segments.map((id) => SEGMENT_BY_ID.get(id)?.name),
        sortable: false,
        width: 260,
        cell: (c) => (
          <span className="gallery__chips">
            {c.segments.map((id) => {
              const segment = SEGMENT_BY_ID.get(id);
              return segment ? <Chip key={id} label={segment.name} color={segment.color} size="sm" /> : null;
            })}
          </span>
        ),
      },
      { id: 'whatsapp', header: 'WhatsApp', accessor: 'whatsapp_cellphone', width: 170 },
      { id: 'email', header: t('gallery.columns.email'), accessor: 'email', width: 250 },
    ],
    [t],
  );

  const simulateSave = (work: () => void, message: string) => {
    setLoading(true);
    window.setTimeout(() => {
      work();
      setLoading(false);
      box.success(message, 4000);
    }, 600);
  };

  const onDelete = async (rows: GalleryClient[], helpers: { clearSelection: () => void }) => {
    const ok = await confirm({ message: g('confirmDeleteClients'), tone: 'danger' });
    if (!ok) return;
    const ids = new Set(rows.map((row) => row.id));
    simulateSave(
      () => {
        setClients((current) => current.filter((client) => !ids.has(client.id)));
        helpers.clearSelection();
      },
      g('deleted', { count: rows.length }),
    );
  };

  const onSave = (values: ClientFormValues) => {
    const target = editing;
    setEditing(null);
    simulateSave(() => {
      setClients((current) => {
        if (target === 'new' || target === null) {
          const id = current.reduce((max, c) => Math.max(max, c.id), 0) + 1;
          return [{ id, ...values }, ...current];
        }
        return current.map((c) => (c.id === target.id ? { ...c, ...values } : c));
      });
    }, g('saved'));
  };

  return (
    <Section
      id="gallery-table"
      title={g('tableTitle')}
      hint={g('tableHint', { total: formatNumber(ROW_COUNT, i18n.language) })}
    >
      <MessageBox {...box.props} className="gallery__message" />
      <DataTable
        id="gallery-clients"
        label={g('tableLabel')}
        data={clients}
        columns={columns}
        getRowId={(c) => c.id}
        minWidth={1200}
        loading={loading}
        onEdit={(row) => setEditing(row)}
        onDelete={onDelete}
        toolbar={
          <Button variant="primary" onClick={() => setEditing('new')}>
            {g('createClient')}
          </Button>
        }
        rowActionsWidth={140}
        rowActions={(c) => (
          <Button size="sm" variant="secondary" onClick={() => setChatWith(c)}>
            {g('goToChat')}
          </Button>
        )}
      />
      {editing !== null && (
        <ClientFormModal
          client={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSave={onSave}
        />
      )}
      <Modal
        open={chatWith !== null}
        onClose={() => setChatWith(null)}
        title={g('goToChat')}
        size="sm"
        footer={
          <Button variant="primary" onClick={() => setChatWith(null)}>
            {t('widgets.common.close')}
          </Button>
        }
      >
        {chatWith && (
          <div className="gallery__person gallery__person--large">
            <Avatar name={`${chatWith.name} ${chatWith.last_names}`} size={48} />
            <div>
              <strong>
                {chatWith.name} {chatWith.last_names}
              </strong>
              <p className="gallery__muted">+{chatWith.whatsapp_cellphone}</p>
            </div>
          </div>
        )}
      </Modal>
    </Section>
  );
}

function ClientFormModal({
  client,
  onClose,
  onSave,
}: {
  client: GalleryClient | null;
  onClose: () => void;
  onSave: (values: ClientFormValues) => void;
}) {
  const { t } = useTranslation();
  const g = (key: string) => t(`gallery.${key}`);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]> | null>(null);
  const { register, control, handleSubmit, formState } = useForm<ClientFormValues>({
    defaultValues: {
      name: client?.name ?? '',
      last_names: client?.last_names ?? '',
      whatsapp_cellphone: client?.whatsapp_cellphone ?? '',
      email: client?.email ?? '',
      segments: client?.segments ?? [],
      projects: '',
    },
  });
  const required = { required: g('required') };
  const errors = formState.errors;

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={client ? g('editClient') : g('createClient')}
      footer={
        <>
          <Button onClick={() => setServerErrors(SAMPLE_422)}>{g('simulate422')}</Button>
          <Button onClick={onClose}>{t('widgets.common.cancel')}</Button>
          <Button variant="primary" type="submit" form="gallery-client-form">
            {g('save')}
          </Button>
        </>
      }
    >
      <form id="gallery-client-form" className="gallery__form" onSubmit={handleSubmit(onSave)} noValidate>
        <ValidationErrorList errors={serverErrors} />
        <div className="gallery__form-row">
          <Field id="gc-name" label={g('fields.name')} error={errors.name?.message}>
            <input id="gc-name" className="gallery__input" {...register('name', required)} />
          </Field>
          <Field id="gc-last" label={g('fields.lastNames')} error={errors.last_names?.message}>
            <input id="gc-last" className="gallery__input" {...register('last_names', required)} />
          </Field>
        </div>
        <div className="gallery__form-row">
          <Field id="gc-phone" label="WhatsApp" error={errors.whatsapp_cellphone?.message}>
            <input
              id="gc-phone"
              className="gallery__input"
              inputMode="numeric"
              {...register('whatsapp_cellphone', required)}
            />
          </Field>
          <Field id="gc-email" label={g('fields.email')} error={errors.email?.message}>
            <input id="gc-email" type="email" className="gallery__input" {...register('email', required)} />
          </Field>
        </div>
        <Field id="gc-segments" label={g('fields.segments')} error={errors.segments?.message}>
          <Controller
            name="segments"
            control={control}
            rules={{ validate: (value) => value.length > 0 || g('segmentsRequired') }}
            render={({ field, fieldState }) => (
              <MultiSelect
                id="gc-segments"
                options={SEGMENT_OPTIONS}
                coloredChips
                required
                invalid={fieldState.invalid}
                {...field}
              />
            )}
          />
        </Field>
        <Field id="gc-projects" label={g('fields.projects')}>
          <Textarea id="gc-projects" maxLength={1000} rows={3} {...register('projects')} />
        </Field>
      </form>
    </Modal>
  );
}
