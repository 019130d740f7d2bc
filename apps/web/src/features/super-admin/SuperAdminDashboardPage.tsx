import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  ArrowRightIcon,
  BotIcon,
  ChartIcon,
  MessageSquareIcon,
  SettingsIcon,
  UsersIcon,
} from '../../components/lib/icons';
import { intlLocale } from '../../lib/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';

// The dashboard's figures are static for now (real figures come with the analytics work).
const MESSAGES_PER_MONTH = 1234;
const INTERACTIONS_TODAY = 567;

const LINK_CARDS = [
  { key: 'users', to: '/super-admin/users', icon: UsersIcon },
  { key: 'statistics', to: '/super-admin/analytics', icon: ChartIcon },
  { key: 'settings', to: '/super-admin/settings', icon: SettingsIcon },
] as const;

export default function SuperAdminDashboardPage() {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(intlLocale(i18n.resolvedLanguage ?? i18n.language));
  useDocumentTitle(t('superAdmin.title'));
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-header__title">{t('superAdmin.title')}</h1>
        <p className="page-header__subtitle">{t('superAdmin.subtitle')}</p>
      </header>
      <div className="stat-grid">
        <article className="stat-card" aria-labelledby="stat-messages">
          <span className="stat-card__icon stat-card__icon--green">
            <MessageSquareIcon size={22} />
          </span>
          <h2 id="stat-messages" className="stat-card__title">
            {t('superAdmin.cards.messages.title')}
          </h2>
          <p className="stat-card__value" data-testid="stat-messages">
            {format.format(MESSAGES_PER_MONTH)}
          </p>
          <p className="stat-card__caption">{t('superAdmin.cards.messages.caption')}</p>
        </article>
        <article className="stat-card" aria-labelledby="stat-interactions">
          <span className="stat-card__icon stat-card__icon--blue">
            <BotIcon size={22} />
          </span>
          <h2 id="stat-interactions" className="stat-card__title">
            {t('superAdmin.cards.interactions.title')}
          </h2>
          <p className="stat-card__value" data-testid="stat-interactions">
            {format.format(INTERACTIONS_TODAY)}
          </p>
          <p className="stat-card__caption">{t('superAdmin.cards.interactions.caption')}</p>
        </article>
      </div>
      <ul className="card-grid">
        {LINK_CARDS.map(({ key, to, icon: CardIcon }) => (
          <li key={key} className="link-card">
            <span className="link-card__icon">
              <CardIcon size={22} />
            </span>
            <h2 className="link-card__title">{t(`superAdmin.cards.${key}.title`)}</h2>
            <p className="link-card__description">{t(`superAdmin.cards.${key}.description`)}</p>
            <Link to={to} className="link-card__action">
              {t(`superAdmin.cards.${key}.action`)}
              <ArrowRightIcon size={16} />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
