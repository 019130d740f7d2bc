import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/use-document-title';
import { InboxSettingsSection } from './InboxSettingsSection';
import { MembersSection } from './MembersSection';
import { QuickRepliesSection } from './QuickRepliesSection';
import './team.css';

/**
 * 'Equipo' (/admin/team, admins only): the company's admins and agents, how the inbox hands out and
 * shows conversations to agents ('Bandeja de entrada'), and the quick replies of the composer.
 */
export default function TeamPage() {
  const { t } = useTranslation();
  const id = useId();
  useDocumentTitle(t('team.title'));
  return (
    <div className="page team-page">
      <header className="page-header">
        <h1 className="page-header__title">{t('team.title')}</h1>
        <p className="page-header__subtitle">{t('team.subtitle')}</p>
      </header>
      <MembersSection headingId={`${id}-members`} />
      <InboxSettingsSection headingId={`${id}-inbox`} />
      <QuickRepliesSection headingId={`${id}-replies`} />
    </div>
  );
}
