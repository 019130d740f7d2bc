import { DEFAULT_SEGMENT_COLOR } from '@hablabot/contract';
import { type Ref, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHexColor, PICKER_FALLBACK_COLOR } from '../lib/color';
import { CheckIcon } from '../lib/icons';
import { cx } from '../lib/text';
import { useStableId } from '../lib/useId';
import '../lib/tokens.css';
import './ColorPicker.css';

/** The default segment colour (the contract's), first of the presets. */
export { DEFAULT_SEGMENT_COLOR };

export const DEFAULT_COLOR_PRESETS = [
  DEFAULT_SEGMENT_COLOR,
  '#1a73e8',
  '#128c7e',
  '#25d366',
  '#f59e0b',
  '#e8590c',
  '#d6336c',
  '#c62828',
  '#5f3dc4',
  '#495057',
] as const;

export interface ColorPickerProps {
  /** '#RRGGBB' or ''. The caller supplies the default (e.g. DEFAULT_SEGMENT_COLOR). */
  value?: string | null;
  /** Uncontrolled start value. */
  defaultValue?: string;
  /** Receives only a valid '#RRGGBB' or '' (while the text is empty or incomplete). */
  onChange?: (value: string) => void;
  onBlur?: () => void;
  /** The hex text field (react-hook-form's `field.ref`). */
  ref?: Ref<HTMLInputElement>;
  /** Id of the hex text field, for an external <label htmlFor>. */
  id?: string;
  name?: string;
  required?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  /** Quick picks under the field; false hides them. */
  presets?: readonly string[] | false;
  'aria-describedby'?: string;
  className?: string;
}

/** Keeps what a hex field can hold: '#' plus up to six hex digits; a missing '#' is added. */
export function sanitizeHexInput(raw: string): string {
  const compact = raw.replace(/\s+/g, '');
  if (compact === '') return '';
  const digits = compact.replace(/^#+/, '').replace(/[^0-9a-fA-F]/g, '');
  return `#${digits.slice(0, 6)}`;
}

/**
 * Colour picker with a hex text field: accepts only #RRGGBB (or empty while
 * typing); the swatch shows #000000 while the text is not a valid colour.
 */
export function ColorPicker({
  value,
  defaultValue = '',
  onChange,
  onBlur,
  ref,
  id,
  name,
  required = false,
  disabled = false,
  invalid = false,
  presets = DEFAULT_COLOR_PRESETS,
  className,
  ...aria
}: ColorPickerProps) {
  const { t } = useTranslation();
  const textId = useStableId(id, 'hb-color');
  const hintId = `${textId}-hint`;
  const controlled = value !== undefined;
  const [draft, setDraft] = useState<string>(controlled ? (value ?? '') : defaultValue);
  const [touched, setTouched] = useState(false);

  // Follow the caller's value when it changes from outside (form reset, editing another record).
  useEffect(() => {
    if (!controlled) return;
    const next = value ?? '';
    setDraft((current) => {
      const committed = isHexColor(current) ? current : '';
      return committed.toLowerCase() === next.toLowerCase() ? current : next;
    });
  }, [controlled, value]);

  const valid = isHexColor(draft);
  const swatch = valid ? draft : PICKER_FALLBACK_COLOR;
  const showHint = touched && draft !== '' && !valid;
  const committed = controlled ? (value ?? '') : valid ? draft : '';

  const commit = (next: string) => {
    setDraft(next);
    const resolved = isHexColor(next) ? next : '';
    if (resolved !== committed || !controlled) onChange?.(resolved);
  };

  const describedBy = [aria['aria-describedby'], showHint ? hintId : undefined].filter(Boolean).join(' ');

  return (
    <div className={cx('hb-color', (invalid || showHint) && 'hb-color--invalid', className)}>
      <div className="hb-color__row">
        <span className="hb-color__swatch" style={{ background: swatch }}>
          <input
            type="color"
            className="hb-color__native"
            value={swatch.toLowerCase()}
            disabled={disabled}
            aria-label={t('widgets.colorPicker.swatch')}
            onChange={(event) => commit(event.target.value)}
            onBlur={onBlur}
          />
        </span>
        <input
          ref={ref}
          id={textId}
          name={name}
          type="text"
          className="hb-color__text"
          value={draft}
          placeholder={DEFAULT_SEGMENT_COLOR}
          required={required}
          disabled={disabled}
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          pattern="#[0-9A-Fa-f]{6}"
          aria-invalid={invalid || showHint || undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => commit(sanitizeHexInput(event.target.value))}
          onBlur={() => {
            setTouched(true);
            onBlur?.();
          }}
        />
      </div>
      {presets && presets.length > 0 && (
        <fieldset className="hb-color__presets" disabled={disabled}>
          <legend className="hb-visually-hidden">{t('widgets.colorPicker.presets')}</legend>
          {presets.map((preset) => {
            const current = valid && draft.toLowerCase() === preset.toLowerCase();
            return (
              <button
                key={preset}
                type="button"
                className={cx('hb-color__preset', current && 'hb-color__preset--current')}
                style={{ background: preset }}
                aria-label={t('widgets.colorPicker.preset', { color: preset })}
                aria-pressed={current}
                onClick={() => commit(preset)}
              >
                {current && <CheckIcon size={12} strokeWidth={3} />}
              </button>
            );
          })}
        </fieldset>
      )}
      {showHint && (
        <p id={hintId} className="hb-color__hint">
          {t('widgets.colorPicker.invalid')}
        </p>
      )}
    </div>
  );
}
