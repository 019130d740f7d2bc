import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';
import './settings.css';

// The frame the settings screens share ('Configuraciones' and 'Horario de atención'): the page with its
// title (also the document's) and subtitle, and the cards its sections sit in.

export function SettingsPageLayout(props: {
  title: string;
  subtitle: string;
  /** A class of the screen's own, beside `page settings-page`. */
  className?: string;
  /** A link above the title (back to the settings). */
  before?: ReactNode;
  /** A link under the subtitle (on to another settings screen). */
  after?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(props.title);
  return (
    <div className={`page settings-page${props.className ? ` ${props.className}` : ''}`}>
      <header className="page-header">
        {props.before}
        <h1 className="page-header__title">{props.title}</h1>
        <p className="page-header__subtitle">{props.subtitle}</p>
        {props.after}
      </header>
      {props.children}
    </div>
  );
}

/** One section of a settings screen: a card named by its heading, with an optional description. */
export function SettingsCard(props: {
  headingId: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section className="settings-card" aria-labelledby={props.headingId}>
      <h2 id={props.headingId} className="settings-card__title">
        {props.title}
      </h2>
      {props.description && <p className="settings-card__description">{props.description}</p>}
      {props.children}
    </section>
  );
}
