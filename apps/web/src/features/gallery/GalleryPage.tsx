import { type FormEvent, useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  Button,
  Chip,
  ColorPicker,
  ConfirmProvider,
  DataTable,
  type DataTableColumn,
  DEFAULT_SEGMENT_COLOR,
  formatNumber,
  LoadingOverlay,
  MessageBox,
  Modal,
  type ModalSize,
  MultiSelect,
  type MultiSelectOption,
  Textarea,
  useConfirm,
  useMessageBox,
  ValidationErrorList,
} from '../../components';
import { type GalleryClient, generateClients, SEGMENTS } from './data';
import './gallery.css';

const ROW_COUNT = 10_000;
const SEGMENT_BY_ID = new Map(SEGMENTS.map((segment) => [segment.id, segment]));
const SEGMENT_OPTIONS: MultiSelectOption<number>[] = SEGMENTS.map((segment) => ({
  value: segment.id,
  label: segment.name,
  color: segment.color,
}));

const SAMPLE_422 = {
  email: ['El campo correo ya ha sido registrado.'],
  whatsapp_cellphone: ['El campo WhatsApp debe tener al menos 10 dígitos.'],
  segments: ['Debe seleccionar al menos un segmento'],
};

/** Developer gallery of the shared widgets (route /dev/widgets), with realistic data. */
export default function GalleryPage() {
  return (
    <ConfirmProvider>
      <Gallery />
    </ConfirmProvider>
  );
}

function Gallery() {
  const { t, i18n } = useTranslation();
  const g = (key: string, options?: Record<string, unknown>) => t(`gallery.${key}`, options);

  return (
    <div className="gallery">
      <header className="gallery__header">
        <div>
          <p className="gallery__eyebrow">HablaBot</p>
          <h1>{g('title')}</h1>
          <p className="gallery__lead">{g('lead')}</p>
        </div>
        <fieldset className="gallery__lang">
          <legend className="hb-visually-hidden">{g('language')}</legend>
          {(['es', 'en'] as const).map((language) => (
            <Button
              key={language}
              size="sm"
              variant={i18n.language === language ? 'primary' : 'secondary'}
              aria-pressed={i18n.language === language}
              onClick={() => void i18n.changeLanguage(language)}
            >
              {language.toUpperCase()}
            </Button>
          ))}
        </fieldset>
      </header>

      <ClientsTableSection />

      <div className="gallery__grid">
        <FormsSection />
        <FeedbackSection />
        <ModalsSection />
        <ChipsAvatarsSection />
      </div>
    </div>
  );
}

function Section({
  id,
  title,
  hint,
  children,
}: {
  id: string;
  title: string;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <section className="gallery__section" aria-labelledby={`${id}-title`} id={id}>
      <div className="gallery__section-head">
        <h2 id={`${id}-title`}>{title}</h2>
        {hint && <p>{hint}</p>}
      </div>
      {children}
    </section>
  );
}

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

function ClientsTableSection() {
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

function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="gallery__field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p className="gallery__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// Form widgets: MultiSelect (5,000 clients), ColorPicker, Textarea

function FormsSection() {
  const { t } = useTranslation();
  const g = (key: string, options?: Record<string, unknown>) => t(`gallery.${key}`, options);
  const clientOptions = useMemo<MultiSelectOption<number>[]>(
    () =>
      generateClients(5000, 7).map((c) => ({
        value: c.id,
        label: `${c.name} ${c.last_names}`,
        description: `+${c.whatsapp_cellphone}`,
      })),
    [],
  );
  const [listClients, setListClients] = useState<number[]>([3, 17]);
  const [segments, setSegments] = useState<number[]>([1, 5]);
  const [color, setColor] = useState(DEFAULT_SEGMENT_COLOR);
  const [ask, setAsk] = useState('Horario de atención');
  const [reply, setReply] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(g('submitted', { count: listClients.length }));
  };

  return (
    <Section id="gallery-forms" title={g('formsTitle')} hint={g('formsHint')}>
      <form className="gallery__form" onSubmit={onSubmit}>
        <Field id="gf-list" label={g('fields.listClients')}>
          <MultiSelect
            id="gf-list"
            options={clientOptions}
            value={listClients}
            onChange={setListClients}
            required
            name="client_ids"
          />
        </Field>
        <Field id="gf-segments" label={g('fields.segments')}>
          <MultiSelect
            id="gf-segments"
            options={SEGMENT_OPTIONS}
            value={segments}
            onChange={setSegments}
            coloredChips
          />
        </Field>
        <Field id="gf-color" label={g('fields.color')}>
          <ColorPicker id="gf-color" value={color} onChange={setColor} required />
        </Field>
        <p className="gallery__muted">
          {g('colorValue')} <code>{color === '' ? '—' : color}</code>{' '}
          <Chip label={g('fields.segmentPreview')} color={color} size="sm" />
        </p>
        <Field id="gf-ask" label={g('fields.ask')}>
          <Textarea
            id="gf-ask"
            maxLength={100}
            rows={1}
            value={ask}
            onChange={(e) => setAsk(e.target.value)}
          />
        </Field>
        <Field id="gf-reply" label={g('fields.reply')}>
          <Textarea
            id="gf-reply"
            maxLength={1000}
            rows={4}
            value={reply}
            placeholder={g('replyPlaceholder')}
            onChange={(e) => setReply(e.target.value)}
          />
        </Field>
        <div className="gallery__actions">
          <Button type="submit" variant="primary">
            {g('save')}
          </Button>
        </div>
        <MessageBox message={submitted ?? ''} autoDismissMs={3000} onDismiss={() => setSubmitted(null)} />
      </form>
    </Section>
  );
}

// ---------------------------------------------------------------------------------------------------
// Feedback: MessageBox, LoadingOverlay, ValidationErrorList

function FeedbackSection() {
  const { t } = useTranslation();
  const g = (key: string) => t(`gallery.${key}`);
  const box = useMessageBox();
  const [overlay, setOverlay] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);

  return (
    <Section id="gallery-feedback" title={g('feedbackTitle')} hint={g('feedbackHint')}>
      <div className="gallery__actions">
        <Button variant="primary" onClick={() => box.success(g('sampleSuccess'), 4000)}>
          {g('showSuccess')}
        </Button>
        <Button variant="danger" onClick={() => box.error(g('sampleError'), 5000)}>
          {g('showError')}
        </Button>
      </div>
      <MessageBox {...box.props} />
      <div className="gallery__overlay-demo">
        <p>{g('overlayCard')}</p>
        <LoadingOverlay visible={overlay} />
      </div>
      <div className="gallery__actions">
        <Button onClick={() => setOverlay((v) => !v)} aria-pressed={overlay}>
          {g('toggleOverlay')}
        </Button>
        <Button
          onClick={() => {
            setFullscreen(true);
            window.setTimeout(() => setFullscreen(false), 1500);
          }}
        >
          {g('fullscreenOverlay')}
        </Button>
      </div>
      <LoadingOverlay visible={fullscreen} fullscreen />
      <ValidationErrorList errors={SAMPLE_422} />
    </Section>
  );
}

// ---------------------------------------------------------------------------------------------------
// Modal sizes and confirmations

function ModalsSection() {
  const { t } = useTranslation();
  const g = (key: string, options?: Record<string, unknown>) => t(`gallery.${key}`, options);
  const [size, setSize] = useState<ModalSize | null>(null);
  const [answer, setAnswer] = useState<string | null>(null);
  const confirm = useConfirm();
  const segmentNameRef = useRef<HTMLInputElement>(null);
  const [segmentColor, setSegmentColor] = useState(DEFAULT_SEGMENT_COLOR);

  const ask = async (message: string, tone: 'danger' | 'primary' = 'danger') => {
    const ok = await confirm({ message, tone });
    setAnswer(ok ? g('confirmed') : g('cancelled'));
  };

  return (
    <Section id="gallery-modals" title={g('modalsTitle')} hint={g('modalsHint')}>
      <div className="gallery__actions">
        {(['sm', 'md', 'lg', 'xl'] as const).map((s) => (
          <Button key={s} onClick={() => setSize(s)}>
            {g('openModal', { size: s })}
          </Button>
        ))}
      </div>
      <div className="gallery__actions">
        <Button variant="danger" onClick={() => ask(g('confirmDeleteClients'))}>
          {g('deleteClients')}
        </Button>
        <Button variant="danger" onClick={() => ask(g('confirmDeleteSegment'))}>
          {g('deleteSegment')}
        </Button>
        <Button onClick={() => ask(g('confirmToggleBot'), 'primary')}>{g('toggleBot')}</Button>
      </div>
      <MessageBox type="info" message={answer ?? ''} autoDismissMs={3000} onDismiss={() => setAnswer(null)} />
      <Modal
        open={size !== null}
        onClose={() => setSize(null)}
        size={size ?? 'md'}
        title={g('segmentModalTitle')}
        description={g('segmentModalDescription')}
        initialFocusRef={segmentNameRef}
        footer={
          <>
            <Button onClick={() => setSize(null)}>{t('widgets.common.cancel')}</Button>
            <Button variant="primary" onClick={() => setSize(null)}>
              {g('save')}
            </Button>
          </>
        }
      >
        <div className="gallery__form">
          <Field id="gm-name" label={g('fields.name')}>
            <input id="gm-name" ref={segmentNameRef} className="gallery__input" defaultValue="Clientes VIP" />
          </Field>
          <Field id="gm-color" label={g('fields.color')}>
            <ColorPicker id="gm-color" value={segmentColor} onChange={setSegmentColor} />
          </Field>
          <Field id="gm-rules" label={g('fields.rules')}>
            <Textarea id="gm-rules" maxLength={1000} rows={3} defaultValue={g('sampleRules')} />
          </Field>
        </div>
      </Modal>
    </Section>
  );
}

// ---------------------------------------------------------------------------------------------------
// Chips and avatars

const PEOPLE = [
  'José Pérez',
  'María Fernanda López',
  'Ángela Núñez',
  'Luis Ruiz',
  'Íñigo Ibáñez',
  'Sofía Díaz',
  '',
];

function ChipsAvatarsSection() {
  const { t } = useTranslation();
  const g = (key: string) => t(`gallery.${key}`);
  const [chips, setChips] = useState(SEGMENTS);

  return (
    <Section id="gallery-chips" title={g('chipsTitle')} hint={g('chipsHint')}>
      <div className="gallery__chips gallery__chips--wrap">
        {chips.map((segment) => (
          <Chip
            key={segment.id}
            label={segment.name}
            color={segment.color}
            onClick={() => {}}
            onRemove={() => setChips((current) => current.filter((c) => c.id !== segment.id))}
          />
        ))}
        <Chip label={g('none')} />
        {chips.length < SEGMENTS.length && (
          <Button size="sm" variant="ghost" onClick={() => setChips(SEGMENTS)}>
            {g('restore')}
          </Button>
        )}
      </div>
      <ul className="gallery__people">
        {PEOPLE.map((name) => (
          <li key={name || 'anonymous'}>
            <Avatar name={name} size={40} decorative />
            <span>{name || g('noName')}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
