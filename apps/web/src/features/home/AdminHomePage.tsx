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
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';

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

export default function AdminHomePage() {
  const { t } = useTranslation();
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
              </span>
              <ArrowRightIcon size={18} className="tile__arrow" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
