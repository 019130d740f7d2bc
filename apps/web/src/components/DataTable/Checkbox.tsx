import { useEffect, useRef } from 'react';

interface CheckboxProps {
  checked: boolean;
  indeterminate?: boolean;
  disabled?: boolean;
  /** `shiftKey` is true when the change came from a shift+click (range selection). */
  onChange: (checked: boolean, shiftKey: boolean) => void;
  'aria-label': string;
}

/** A native checkbox that can also show the mixed state (used by select-all). */
export function Checkbox({ checked, indeterminate = false, disabled, onChange, ...aria }: CheckboxProps) {
  const ref = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate && !checked;
  }, [indeterminate, checked]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="hb-checkbox"
      checked={checked}
      disabled={disabled}
      onChange={(event) => {
        // React fires a checkbox's change from its click, so the native event carries the modifier keys.
        onChange(event.target.checked, (event.nativeEvent as Partial<MouseEvent>).shiftKey === true);
      }}
      {...aria}
    />
  );
}
