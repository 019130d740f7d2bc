import { Children, type ReactNode } from 'react';
import { PlusIcon } from '../lib/icons';
import './ChipBar.css';

export interface ChipBarProps {
  /** The id of the heading; the section is labelled by it. */
  headingId: string;
  heading: ReactNode;
  /** The chips, each in a list item of its own. */
  children?: ReactNode;
  /** The text of the dashed button after the chips that creates one more. */
  addLabel: string;
  onAdd: () => void;
  /** Shown under the button when given (when there are no chips). */
  emptyText?: string | false;
}

/**
 * A card across the top of a page with a heading, a wrapping row of chips (segments, client lists) and a
 * dashed button to create another; the heading takes a line of its own at 768 px or less.
 */
export function ChipBar({ headingId, heading, children, addLabel, onAdd, emptyText }: ChipBarProps) {
  return (
    <section className="chip-bar" aria-labelledby={headingId}>
      <h2 id={headingId} className="chip-bar__heading">
        {heading}
      </h2>
      <ul className="chip-bar__list">
        {Children.map(children, (chip) => (
          <li>{chip}</li>
        ))}
        <li>
          <button type="button" className="chip-bar__add" onClick={onAdd}>
            <PlusIcon size={14} />
            {addLabel}
          </button>
        </li>
      </ul>
      {emptyText ? <p className="chip-bar__empty">{emptyText}</p> : null}
    </section>
  );
}
