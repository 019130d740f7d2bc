import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  Button,
  Chip,
  ColorPicker,
  DEFAULT_SEGMENT_COLOR,
  LoadingOverlay,
  MessageBox,
  Modal,
  type ModalSize,
  Textarea,
  useConfirm,
  useMessageBox,
  ValidationErrorList,
} from '../../components';
import { SEGMENTS } from './data';
import { Field, SAMPLE_422, Section } from './gallery-parts';

// ---------------------------------------------------------------------------------------------------
// Feedback: MessageBox, LoadingOverlay, ValidationErrorList

export function FeedbackSection() {
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

export function ModalsSection() {
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

export function ChipsAvatarsSection() {
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
