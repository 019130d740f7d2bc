import type { CSSProperties } from 'react';
import { CheckIcon } from '../lib/icons';
import { cx } from '../lib/text';
import type { MultiSelectOption, MultiSelectValue } from './MultiSelect';

/** One option of the list: its check, its colour swatch, its label and description. */
export function OptionRow<V extends MultiSelectValue>(props: {
  option: MultiSelectOption<V>;
  index: number;
  /** The combobox input's id: options are named after it (aria-activedescendant). */
  inputId: string;
  active: boolean;
  selected: boolean;
  coloredChips: boolean;
  style?: CSSProperties;
  /** The pointer moved over it. */
  onHover: (index: number) => void;
  onPick: (option: MultiSelectOption<V>) => void;
}) {
  const { option, index, active, selected: isSelected, coloredChips } = props;
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: options are reached through aria-activedescendant, focus stays in the combobox
    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard
    <div
      id={`${props.inputId}-opt-${index}`}
      role="option"
      aria-selected={isSelected}
      aria-disabled={option.disabled || undefined}
      data-index={index}
      className={cx(
        'hb-ms__option',
        active && 'hb-ms__option--active',
        isSelected && 'hb-ms__option--selected',
        option.disabled && 'hb-ms__option--disabled',
      )}
      style={props.style}
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={() => {
        if (!option.disabled && !active) props.onHover(index);
      }}
      onClick={() => props.onPick(option)}
    >
      <span className="hb-ms__check" aria-hidden="true">
        {isSelected && <CheckIcon size={12} strokeWidth={3} />}
      </span>
      {coloredChips && option.color && (
        <span className="hb-ms__swatch" style={{ background: option.color }} aria-hidden="true" />
      )}
      <span className="hb-ms__option-text">
        <span className="hb-ms__option-label">{option.label}</span>
        {option.description && <span className="hb-ms__option-description">{option.description}</span>}
      </span>
    </div>
  );
}
