import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Overview } from '@hablabot/contract';
import {
  ArrowRightIcon,
  BotIcon,
  BuildingIcon,
  ChartIcon,
  MessageSquareIcon,
  SettingsIcon,
  UsersIcon,
} from '../../components/lib/icons';
import { intlLocale } from '../../lib/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useOverview } from './api';
import './super-admin.css';

/** The figure cards: what each counts (GET /super-admin/overview), its icon and colour. */
const STAT_CARDS = [
  { key: 'messages', field: 'messages_this_month', icon: MessageSquareIcon, tone: 'green' },
  { key: 'interactions', field: 'bot_interactions_today', icon: BotIcon, tone: 'blue' },
  { key: 'usersCount', field: 'users', icon: UsersIcon, tone: 'green' },
  { key: 'companies', field: 'companies', icon: BuildingIcon, tone: 'blue' },
] as const satisfies readonly { key: string; field: keyof Overview; icon: unknown; tone: string }[];

/** The area's screens; a card whose screen is not built yet (`to: null`) says so instead of linking. */
const LINK_CARDS = [
  { key: 'users', to: '/super-admin/users', icon: UsersIcon },
  { key: 'companiesLink', to: '/super-admin/companies', icon: BuildingIcon },
  { key: 'statistics', to: '/super-admin/analytics', icon: ChartIcon },
  { key: 'settings', to: null, icon: SettingsIcon },
] as const satisfies readonly { key: string; to: string | null; icon: unknown }[];

export default function SuperAdminDashboardPage() {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(intlLocale(i18n.resolvedLanguage ?? i18n.language));
  useDocumentTitle(t('superAdmin.title'));
  const overview = useOverview();
  const figures = overview.data?.data;
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-header__title">{t('superAdmin.title')}</h1>
        <p className="page-header__subtitle">{t('superAdmin.subtitle')}</p>
      </header>
      <div className="stat-grid" aria-busy={overview.isPending}>
        {STAT_CARDS.map(({ key, field, icon: CardIcon, tone }) => (
          <article key={key} className="stat-card" aria-labelledby={`stat-${key}`}>
            <span className={`stat-card__icon stat-card__icon--${tone}`}>
              <CardIcon size={22} />
            </span>
            <h2 id={`stat-${key}`} className="stat-card__title">
              {t(`superAdmin.cards.${key}.title`)}
            </h2>
            <p className="stat-card__value" data-testid={`stat-${key}`}>
              {figures ? format.format(figures[field]) : overview.isError ? '—' : '…'}
            </p>
            <p className="stat-card__caption">{t(`superAdmin.cards.${key}.caption`)}</p>
          </article>
        ))}
      </div>
      {overview.isError && <p className="sa-muted">{t('superAdmin.figuresError')}</p>}
      <ul className="card-grid">
        {LINK_CARDS.map(({ key, to, icon: CardIcon }) => (
          <li key={key} className="link-card">
            <span className="link-card__icon">
              <CardIcon size={22} />
            </span>
            <h2 className="link-card__title">{t(`superAdmin.cards.${key}.title`)}</h2>
            <p className="link-card__description">{t(`superAdmin.cards.${key}.description`)}</p>
            {to ? (
              <Link to={to} className="link-card__action">
                {t(`superAdmin.cards.${key}.action`)}
                <ArrowRightIcon size={16} />
              </Link>
            ) : (
              <p className="link-card__action sa-unavailable">{t('superAdmin.cards.unavailable')}</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
