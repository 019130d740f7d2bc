import type { MessageTemplate } from '@hablabot/contract';
import './template-buttons.css';

/** The buttons of a template's BUTTONS part, in order; none when it has none. */
export function templateButtons(template: Pick<MessageTemplate, 'components'> | null | undefined) {
  return template?.components.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons ?? [];
}

/**
 * A template's buttons as WhatsApp draws them under the message (quick replies, links, a phone
 * number), for the previews of the chat's template modal and the mass-message form. Quick replies
 * are what the customer taps to answer; their answer comes back to the chat as a button. `label` names
 * the list for assistive technology, in the screen's own texts.
 */
export function TemplateButtonsPreview({
  template,
  label,
}: {
  template: Pick<MessageTemplate, 'components'> | null | undefined;
  label: string;
}) {
  const buttons = templateButtons(template);
  if (buttons.length === 0) return null;
  return (
    <ul className="tpl-buttons" aria-label={label}>
      {buttons.map((button, i) => {
        const kind = button.type.toUpperCase();
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a template's buttons are fixed, by position
          <li key={i} className={`tpl-buttons__button tpl-buttons__button--${kind.toLowerCase()}`}>
            {kind === 'URL' ? <span aria-hidden="true">↗ </span> : null}
            {kind === 'PHONE_NUMBER' ? <span aria-hidden="true">✆ </span> : null}
            {button.text ?? kind}
          </li>
        );
      })}
    </ul>
  );
}
