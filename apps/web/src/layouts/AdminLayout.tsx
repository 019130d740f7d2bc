import { useTranslation } from 'react-i18next';
import { AppShell, type ShellNavItem } from './AppShell';
import {
  BotIcon,
  ChatIcon,
  HomeIcon,
  ImageIcon,
  MegaphoneIcon,
  SettingsIcon,
  UsersIcon,
} from '../components/lib/icons';

/** Admin layout: home, bots, clients, chats, settings, media, bulk messages. */
export default function AdminLayout() {
  const { t } = useTranslation();
  const items: ShellNavItem[] = [
    { to: '/admin', label: t('nav.home'), icon: HomeIcon, end: true },
    { to: '/admin/bots', label: t('nav.bots'), icon: BotIcon },
    { to: '/admin/clients', label: t('nav.clients'), icon: UsersIcon },
    { to: '/admin/chat', label: t('nav.chats'), icon: ChatIcon },
    { to: '/admin/setting', label: t('nav.settings'), icon: SettingsIcon },
    { to: '/admin/media', label: t('nav.media'), icon: ImageIcon },
    { to: '/admin/messages-massive', label: t('nav.bulkMessages'), icon: MegaphoneIcon },
  ];
  return <AppShell area="admin" homePath="/admin" items={items} mobileMenu="drawer" />;
}
