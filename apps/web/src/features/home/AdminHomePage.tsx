import type { AdminHomeSummary } from '@hablabot/contract';
import { adminHomeApi } from '@hablabot/contract/api';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  ArrowRightIcon,
  BotIcon,
  ChatIcon,
  ImageIcon,
  MegaphoneIcon,
  SettingsIcon,
  UsersIcon,
} from '../../components/lib/icons';
import { call } from '../../lib/api-client';
import { intlLocale } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import './home.css';

interface Tile {
  key: 'bots' | 'clients' | 'chat' | 'settings' | 'media' | 'bulk';
  to: string;
  icon: ComponentType<{ size?: number }>;
}

// Tiles to bots, clients, live chat, settings, media and bulk mailings.
const TILES: Tile[] = [
  { key: 'bots', to: '/admin/bots', icon: BotIcon },
  { key: 'clients', to: '/admin/clients', icon: UsersIcon },
  { key: 'chat', to: '/admin/chat', icon: ChatIcon },
  { key: 'settings', to: '/admin/setting', icon: SettingsIcon },
  { key: 'media', to: '/admin/media', icon: ImageIcon },
  { key: 'bulk', to: '/admin/messages-massive', icon: MegaphoneIcon },
];

type TFunction = ReturnType<typeof useTranslation>['t'];

/** The live figures shown under a tile's description; none while loading or when they cannot be read. */
function tileFigures(key: Tile['key'], data: AdminHomeSummary, t: TFunction, numbers: Intl.NumberFormat) {
  const n = (count: number) => ({ count, formatted: numbers.format(count) });
  switch (key) {
    case 'chat':
      return [
        data.unread_conversations === 0
          ? t('adminHome.figures.noUnread')
          : t('adminHome.figures.unread', n(data.unread_conversations)),
        t('adminHome.figures.messagesToday', n(data.messages_today)),
      ];
    case 'bulk':
      return [
        data.last_mass_send
          ? t('adminHome.figures.lastSend', {
              name: data.last_mass_send.name,
              status: t(`adminHome.sendStatus.${data.last_mass_send.status}`),
            })
          : t('adminHome.figures.noSend'),
      ];
    case 'bots':
      return [
        data.live_bot
          ? t('adminHome.figures.liveBot', { name: data.live_bot.name })
          : t('adminHome.figures.noLiveBot'),
      ];
    default:
      return [];
  }
}

export default function AdminHomePage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const numbers = new Intl.NumberFormat(intlLocale(language));
  // The figures are the company's live state: read again when the admin comes back to the tab.
  const summary = useQuery({
    queryKey: ['admin-home', 'summary'] as const,
    queryFn: ({ signal }) => call(adminHomeApi.summary, {}, { signal }),
    refetchOnWindowFocus: true,
  });
  const figures = summary.data?.data;
  const session = useSession();
  const name = session?.user?.name?.trim();
  useDocumentTitle(t('adminHome.title'));
  return (
    <div className="page">
      <header className="page-header">
        <p className="page-header__eyebrow">{t('adminHome.title')}</p>
        <h1 className="page-header__title">
          {name ? t('adminHome.greeting', { name }) : t('adminHome.title')}
        </h1>
        <p className="page-header__subtitle">{t('adminHome.subtitle')}</p>
      </header>
      <ul className="tile-grid">
        {TILES.map(({ key, to, icon: TileIcon }) => (
          <li key={key}>
            <Link to={to} className={`tile tile--${key}`}>
              <span className="tile__icon">
                <TileIcon size={22} />
              </span>
              <span className="tile__text">
                <span className="tile__title">{t(`adminHome.tiles.${key}.title`)}</span>
                <span className="tile__description">{t(`adminHome.tiles.${key}.description`)}</span>
                {figures &&
                  tileFigures(key, figures, t, numbers).map((text) => (
                    <span key={text} className="tile__figure" data-testid={`figure-${key}`}>
                      {text}
                    </span>
                  ))}
              </span>
              <ArrowRightIcon size={18} className="tile__arrow" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
