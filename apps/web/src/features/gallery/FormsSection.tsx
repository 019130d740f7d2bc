import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  Chip,
  ColorPicker,
  DEFAULT_SEGMENT_COLOR,
  MessageBox,
  MultiSelect,
  type MultiSelectOption,
  Textarea,
} from '../../components';
import { generateClients } from './data';
import { Field, SEGMENT_OPTIONS, Section } from './gallery-parts';

// ---------------------------------------------------------------------------------------------------
// Form widgets: MultiSelect (5,000 clients), ColorPicker, Textarea

export function FormsSection() {
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
