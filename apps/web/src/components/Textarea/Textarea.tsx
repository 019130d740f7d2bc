import {
  type ChangeEvent,
  type ClipboardEvent,
  type Ref,
  type TextareaHTMLAttributes,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from '../lib/text';
import { useStableId } from '../lib/useId';
import '../lib/tokens.css';
import './Textarea.css';

export interface TextareaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'maxLength'> {
  /** Hard limit: typing and pasting stop at this many characters (e.g. 100 for names, 1000 for replies). */
  maxLength?: number;
  /** Shows 'n / max' under the field. Default true when maxLength is set. */
  showCounter?: boolean;
  invalid?: boolean;
  ref?: Ref<HTMLTextAreaElement>;
  /** Class of the wrapper (the textarea itself takes `className`). */
  wrapperClassName?: string;
}

/** Cuts to `max` UTF-16 units (what `maxLength` and zod count) without splitting a surrogate pair. */
export function clampText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut;
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) (ref as { current: T | null }).current = value;
}

/**
 * Calls `onSet` after every programmatic `element.value = …` (react-hook-form's `reset` and
 * `setValue` write the DOM this way, with no input event). Chains to the accessor already on the
 * element (React's own change tracker) so React still sees real edits. Returns the undo.
 */
function watchValue(element: HTMLTextAreaElement, onSet: (value: string) => void): () => void {
  const own = Object.getOwnPropertyDescriptor(element, 'value');
  const base = own ?? Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');
  const get = base?.get;
  const set = base?.set;
  if (!get || !set) return () => {};
  Object.defineProperty(element, 'value', {
    configurable: true,
    enumerable: base.enumerable,
    get() {
      return get.call(this);
    },
    set(next: string) {
      set.call(this, next);
      onSet(get.call(this));
    },
  });
  return () => {
    if (own) Object.defineProperty(element, 'value', own);
    else delete (element as { value?: string }).value;
  };
}

/**
 * Textarea with a character counter and a hard maximum. Works controlled (`value` + `onChange`) and
 * with react-hook-form's `register` (uncontrolled): overlong input is cut before `onChange` sees it.
 */
export function Textarea({
  maxLength,
  showCounter,
  invalid = false,
  className,
  wrapperClassName,
  onChange,
  onPaste,
  value,
  defaultValue,
  id,
  ref,
  rows = 3,
  ...rest
}: TextareaProps) {
  const { t } = useTranslation();
  const fieldId = useStableId(id, 'hb-textarea');
  const counterId = `${fieldId}-counter`;
  const [uncontrolledLength, setUncontrolledLength] = useState(() => String(defaultValue ?? '').length);
  const length = value !== undefined && value !== null ? String(value).length : uncontrolledLength;
  const counter = showCounter ?? maxLength !== undefined;
  const atLimit = maxLength !== undefined && length >= maxLength;
  const uncontrolled = value === undefined;

  const element = useRef<HTMLTextAreaElement | null>(null);
  const fieldRef = useCallback(
    (node: HTMLTextAreaElement | null) => {
      element.current = node;
      assignRef(ref, node);
      return () => assignRef(ref, null);
    },
    [ref],
  );

  // Uncontrolled (react-hook-form's `register`), the form may rewrite the text without an input event
  // (`reset`, `setValue`): the counter follows those writes too. Installed once per element, so a
  // caller's ref changing on every render does not reinstall it.
  useLayoutEffect(() => {
    const node = element.current;
    if (!node || !uncontrolled) return;
    setUncontrolledLength(node.value.length);
    return watchValue(node, (next) => setUncontrolledLength(next.length));
  }, [uncontrolled]);

  const handleChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    const element = event.target;
    if (maxLength !== undefined && element.value.length > maxLength) {
      const caret = Math.min(element.selectionStart ?? maxLength, maxLength);
      element.value = clampText(element.value, maxLength);
      element.setSelectionRange?.(caret, caret);
    }
    setUncontrolledLength(element.value.length);
    onChange?.(event);
  };

  // Pasting into a selection replaces it; only what fits in the remaining room goes in.
  const handlePaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    onPaste?.(event);
    if (event.defaultPrevented || maxLength === undefined) return;
    const element = event.currentTarget;
    const pasted = event.clipboardData.getData('text/plain');
    const start = element.selectionStart ?? element.value.length;
    const end = element.selectionEnd ?? element.value.length;
    const room = maxLength - (element.value.length - (end - start));
    if (pasted.length <= room) return;
    event.preventDefault();
    const insert = clampText(pasted, Math.max(0, room));
    const next = element.value.slice(0, start) + insert + element.value.slice(end);
    // Go through the native setter so React sees a real input event (works controlled and uncontrolled).
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
    setter?.call(element, next);
    element.setSelectionRange?.(start + insert.length, start + insert.length);
    element.dispatchEvent(new Event('input', { bubbles: true }));
  };

  const describedBy = [rest['aria-describedby'], counter ? counterId : undefined].filter(Boolean).join(' ');

  return (
    <div className={cx('hb-textarea', wrapperClassName)}>
      <textarea
        {...rest}
        ref={fieldRef}
        id={fieldId}
        rows={rows}
        className={cx('hb-textarea__field', invalid && 'hb-textarea__field--invalid', className)}
        maxLength={maxLength}
        value={value}
        defaultValue={defaultValue}
        onChange={handleChange}
        onPaste={handlePaste}
        aria-invalid={invalid || rest['aria-invalid'] || undefined}
        aria-describedby={describedBy || undefined}
      />
      {counter && maxLength !== undefined && (
        <div className={cx('hb-textarea__counter', atLimit && 'hb-textarea__counter--limit')} id={counterId}>
          <span aria-hidden="true">{t('widgets.textarea.counter', { count: length, max: maxLength })}</span>
          <span className="hb-visually-hidden">
            {atLimit
              ? t('widgets.textarea.limitReached', { max: maxLength })
              : t('widgets.textarea.counterLabel', { count: length, max: maxLength })}
          </span>
        </div>
      )}
    </div>
  );
}
