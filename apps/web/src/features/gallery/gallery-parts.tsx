import type { MultiSelectOption } from '../../components';
import { SEGMENTS } from './data';

// What the gallery's sections share: their frame, a labelled field, the segments as options, a 422.

export const SEGMENT_OPTIONS: MultiSelectOption<number>[] = SEGMENTS.map((segment) => ({
  value: segment.id,
  label: segment.name,
  color: segment.color,
}));

export const SAMPLE_422 = {
  email: ['El campo correo ya ha sido registrado.'],
  whatsapp_cellphone: ['El campo WhatsApp debe tener al menos 10 dígitos.'],
  segments: ['Debe seleccionar al menos un segmento'],
};

export function Section({
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

export function Field({
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
