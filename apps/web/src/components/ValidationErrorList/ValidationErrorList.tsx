import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../lib/icons';
import { cx } from '../lib/text';
import '../lib/tokens.css';
import './ValidationErrorList.css';

export interface ValidationErrorListProps {
  /** The 422 body's `errors`: field -> messages. Nothing renders when empty or null. */
  errors: Record<string, readonly string[] | string> | null | undefined;
  /** Default 'Por favor corrige los siguientes errores:'. */
  title?: string;
  className?: string;
}

/** Flattens a 422 error map into lines, in field order, without repeating a message. */
export function errorLines(errors: ValidationErrorListProps['errors']): string[] {
  if (!errors) return [];
  const lines: string[] = [];
  for (const messages of Object.values(errors)) {
    for (const message of Array.isArray(messages) ? messages : [messages]) {
      if (message && !lines.includes(message)) lines.push(message);
    }
  }
  return lines;
}

/** Server validation errors (HTTP 422), one per line under the heading 'Por favor corrige los siguientes errores:'. */
export function ValidationErrorList({ errors, title, className }: ValidationErrorListProps) {
  const { t } = useTranslation();
  const lines = errorLines(errors);
  if (lines.length === 0) return null;
  return (
    <div className={cx('hb-errors', className)} role="alert">
      <AlertIcon size={18} className="hb-errors__icon" />
      <div>
        <p className="hb-errors__title">{title ?? t('widgets.validation.title')}</p>
        <ul className="hb-errors__list">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
