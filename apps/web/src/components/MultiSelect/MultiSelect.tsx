import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type KeyboardEvent,
  type Ref,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Chip } from '../Chip/Chip';
import { ChevronDownIcon, CloseIcon } from '../lib/icons';
import { cx, foldText, matchesTerms, queryTerms } from '../lib/text';
import { useStableId } from '../lib/useId';
import '../lib/tokens.css';
import './MultiSelect.css';
import { OptionRow } from './OptionRow';
import { useListPlacement } from './useListPlacement';

export type MultiSelectValue = string | number;

export interface MultiSelectOption<V extends MultiSelectValue = MultiSelectValue> {
  value: V;
  label: string;
  /** Secondary text, also searched (e.g. a phone number). */
  description?: string;
  /** Chip colour (#RRGGBB) for the selected option; grey fallback. */
  color?: string | null;
  disabled?: boolean;
}

export interface MultiSelectProps<V extends MultiSelectValue = MultiSelectValue> {
  options: readonly MultiSelectOption<V>[];
  /** Selected values, in the order chosen. Works as react-hook-form's `field.value`. */
  value: readonly V[] | null | undefined;
  onChange: (value: V[]) => void;
  /** Fires when focus leaves the whole widget (react-hook-form's `field.onBlur`). */
  onBlur?: () => void;
  /** Focuses the search box (react-hook-form's `field.ref` focuses the field with an error). */
  ref?: Ref<HTMLInputElement>;
  /** Also posts the values as hidden inputs for plain form submissions. */
  name?: string;
  id?: string;
  placeholder?: string;
  searchPlaceholder?: string;
  noOptionsText?: string;
  /** Blocks native form submission while nothing is selected; sets aria-required. */
  required?: boolean;
  disabled?: boolean;
  /** Marks the field invalid (red border, aria-invalid), e.g. from react-hook-form's fieldState. */
  invalid?: boolean;
  /** Shows each chip in its option's colour. */
  coloredChips?: boolean;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  className?: string;
}

const VIRTUAL_ABOVE = 150;
const OPTION_HEIGHT = 38;

/**
 * Multi-select with search (a client's segments, the clients of a list): chips for the chosen options,
 * an accent-insensitive search box, and the ARIA combobox/listbox keyboard model — arrows move, Enter
 * toggles, Escape closes, Backspace in an empty search removes the last chip.
 */
export function MultiSelect<V extends MultiSelectValue = MultiSelectValue>({
  options,
  value,
  onChange,
  onBlur,
  ref,
  name,
  id,
  placeholder,
  searchPlaceholder,
  noOptionsText,
  required = false,
  disabled = false,
  invalid = false,
  coloredChips = false,
  className,
  ...aria
}: MultiSelectProps<V>) {
  const { t } = useTranslation();
  const inputId = useStableId(id, 'hb-ms');
  const listId = `${inputId}-listbox`;
  const selected = useMemo(() => (value ?? []) as V[], [value]);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const controlRef = useRef<HTMLDivElement>(null);

  const byValue = useMemo(() => new Map(options.map((option) => [option.value, option])), [options]);
  const selectedSet = useMemo(() => new Set<MultiSelectValue>(selected), [selected]);
  const folded = useMemo(
    () => options.map((option) => foldText(`${option.label} ${option.description ?? ''}`)),
    [options],
  );
  const visible = useMemo(() => {
    const terms = queryTerms(query);
    if (terms.length === 0) return options;
    return options.filter((_, index) => matchesTerms(folded[index], terms));
  }, [options, folded, query]);

  const placement = useListPlacement(open, controlRef, listRef);
  const virtualize = visible.length > VIRTUAL_ABOVE;
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => OPTION_HEIGHT,
    overscan: 8,
    enabled: open && virtualize,
  });

  // Native validation: an empty required multi-select blocks submission with a readable message.
  useEffect(() => {
    inputRef.current?.setCustomValidity(
      required && selected.length === 0 ? t('widgets.multiSelect.required') : '',
    );
  }, [required, selected.length, t]);

  // Keep the active option in view.
  useEffect(() => {
    if (!open || active < 0) return;
    if (virtualize) {
      virtualizer.scrollToIndex(active, { align: 'auto' });
      return;
    }
    const element = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    element?.scrollIntoView?.({ block: 'nearest' });
  }, [active, open, virtualize, virtualizer]);

  const firstEnabled = (from: number, step: 1 | -1, list = visible) => {
    for (let i = from; i >= 0 && i < list.length; i += step) {
      if (!list[i].disabled) return i;
    }
    return -1;
  };

  const toggle = (option: MultiSelectOption<V>) => {
    if (option.disabled || disabled) return;
    if (selectedSet.has(option.value)) onChange(selected.filter((v) => v !== option.value));
    else onChange([...selected, option.value]);
  };

  const remove = (v: V) => {
    onChange(selected.filter((item) => item !== v));
    inputRef.current?.focus();
  };

  const openList = () => {
    if (disabled) return;
    setOpen(true);
    setActive((current) => (current >= 0 ? current : firstEnabled(0, 1)));
  };

  const closeList = () => {
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown': {
        event.preventDefault();
        if (!open) return openList();
        const next = firstEnabled(active + 1, 1);
        if (next !== -1) setActive(next);
        return;
      }
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) return openList();
        const previous = firstEnabled(active - 1, -1);
        if (previous !== -1) setActive(previous);
        return;
      }
      case 'Home':
      case 'End': {
        if (!open || query) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? firstEnabled(0, 1) : firstEnabled(visible.length - 1, -1));
        return;
      }
      case 'Enter': {
        if (!open) return;
        event.preventDefault();
        if (active >= 0 && visible[active]) toggle(visible[active]);
        return;
      }
      case 'Escape': {
        if (!open) return;
        // Claims Escape so an enclosing modal stays open.
        event.preventDefault();
        event.stopPropagation();
        if (query) setQuery('');
        else closeList();
        return;
      }
      case 'Backspace': {
        if (query === '' && selected.length > 0) {
          event.preventDefault();
          onChange(selected.slice(0, -1));
        }
        return;
      }
      case 'Tab':
        closeList();
        return;
    }
  };

  const chips = selected.map((v) => {
    const option = byValue.get(v);
    const label = option?.label ?? String(v);
    return (
      <li key={String(v)}>
        <Chip
          label={label}
          size="sm"
          color={coloredChips ? option?.color : undefined}
          className={coloredChips ? undefined : 'hb-ms__chip'}
          onRemove={() => remove(v)}
          removeLabel={t('widgets.multiSelect.remove', { label })}
          disabled={disabled}
        />
      </li>
    );
  });

  const renderOption = (option: MultiSelectOption<V>, index: number, style?: CSSProperties) => (
    <OptionRow
      key={String(option.value)}
      option={option}
      index={index}
      inputId={inputId}
      active={index === active}
      selected={selectedSet.has(option.value)}
      coloredChips={coloredChips}
      style={style}
      onHover={setActive}
      onPick={(picked) => {
        toggle(picked);
        inputRef.current?.focus();
      }}
    />
  );

  const setInputRef = (element: HTMLInputElement | null) => {
    inputRef.current = element;
    if (typeof ref === 'function') ref(element);
    else if (ref) ref.current = element;
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: onBlur only detects focus leaving the widget
    <div
      ref={rootRef}
      className={cx(
        'hb-ms',
        open && 'hb-ms--open',
        disabled && 'hb-ms--disabled',
        invalid && 'hb-ms--invalid',
        className,
      )}
      onBlur={(event) => {
        if (!rootRef.current?.contains(event.relatedTarget as Node | null)) {
          closeList();
          setQuery('');
          onBlur?.();
        }
      }}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: pointer convenience; the combobox input is the keyboard target */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard */}
      <div
        ref={controlRef}
        className="hb-ms__control"
        onMouseDown={(event) => {
          if (event.target === inputRef.current || (event.target as HTMLElement).closest('button')) return;
          event.preventDefault();
          inputRef.current?.focus();
        }}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('button')) return;
          if (open) closeList();
          else openList();
        }}
      >
        {chips.length > 0 && <ul className="hb-ms__chips">{chips}</ul>}
        <input
          ref={setInputRef}
          id={inputId}
          type="text"
          role="combobox"
          className="hb-ms__input"
          value={query}
          disabled={disabled}
          placeholder={
            selected.length === 0
              ? (placeholder ?? t('widgets.multiSelect.placeholder'))
              : (searchPlaceholder ?? t('widgets.multiSelect.search'))
          }
          aria-expanded={open}
          aria-controls={listId}
          aria-haspopup="listbox"
          aria-autocomplete="list"
          aria-activedescendant={open && active >= 0 ? `${inputId}-opt-${active}` : undefined}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-label={aria['aria-label']}
          aria-labelledby={aria['aria-labelledby']}
          aria-describedby={aria['aria-describedby']}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => {
            // Re-run validity so the browser's message reflects the current selection.
            inputRef.current?.setCustomValidity(
              required && selected.length === 0 ? t('widgets.multiSelect.required') : '',
            );
          }}
        />
        {selected.length > 1 && !disabled && (
          <button
            type="button"
            className="hb-icon-btn hb-ms__clear"
            aria-label={t('widgets.multiSelect.clearAll')}
            onClick={() => {
              onChange([]);
              inputRef.current?.focus();
            }}
          >
            <CloseIcon size={14} />
          </button>
        )}
        <ChevronDownIcon className="hb-ms__chevron" />
      </div>
      <div
        ref={listRef}
        id={listId}
        role="listbox"
        aria-multiselectable="true"
        aria-label={aria['aria-label'] ?? t('widgets.multiSelect.options')}
        className="hb-ms__list"
        hidden={!open}
        style={open ? placement : undefined}
      >
        {open &&
          visible.length > 0 &&
          (virtualize ? (
            <>
              <div aria-hidden="true" style={{ height: virtualizer.getTotalSize() }} />
              {virtualizer.getVirtualItems().map((item) =>
                renderOption(visible[item.index], item.index, {
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: OPTION_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }),
              )}
            </>
          ) : (
            visible.map((option, index) => renderOption(option, index))
          ))}
        {open && visible.length === 0 && (
          <div className="hb-ms__empty">{noOptionsText ?? t('widgets.multiSelect.noOptions')}</div>
        )}
      </div>
      <span className="hb-visually-hidden" aria-live="polite">
        {selected.length > 0 ? t('widgets.multiSelect.selected', { count: selected.length }) : ''}
      </span>
      {name && selected.map((v) => <input key={String(v)} type="hidden" name={name} value={String(v)} />)}
    </div>
  );
}
