import { useTranslation } from 'react-i18next';
import { AppShell, type ShellNavItem } from './AppShell';
import {
  BotIcon,
  ChatIcon,
  HomeIcon,
  ImageIcon,
  MegaphoneIcon,
  MessageSquareIcon,
  SettingsIcon,
  TeamIcon,
  UsersIcon,
} from '../components/lib/icons';
import { TokenBanner } from '../features/settings/TokenBanner';
import { isAgentSession, useSession } from '../lib/session';

/**
 * Admin layout: home, bots, clients, chats, team, settings, media, templates, bulk messages. An agent only answers
 * chats: their menu is 'Chats' alone, and the user menu's home link takes them there.
 */
export default function AdminLayout() {
  const { t } = useTranslation();
  const agent = isAgentSession(useSession());
  if (agent) {
    const chats: ShellNavItem[] = [{ to: '/admin/chat', label: t('nav.chats'), icon: ChatIcon }];
    return (
      <AppShell
        area="admin"
        homePath="/admin/chat"
        homeLabel={t('nav.chats')}
        items={chats}
        mobileMenu="drawer"
      />
    );
  }
  const items: ShellNavItem[] = [
    { to: '/admin', label: t('nav.home'), icon: HomeIcon, end: true },
    { to: '/admin/bots', label: t('nav.bots'), icon: BotIcon },
    { to: '/admin/clients', label: t('nav.clients'), icon: UsersIcon },
    { to: '/admin/chat', label: t('nav.chats'), icon: ChatIcon },
    { to: '/admin/team', label: t('nav.team'), icon: TeamIcon },
    { to: '/admin/setting', label: t('nav.settings'), icon: SettingsIcon },
    { to: '/admin/media', label: t('nav.media'), icon: ImageIcon },
    { to: '/admin/templates', label: t('nav.templates'), icon: MessageSquareIcon },
    { to: '/admin/messages-massive', label: t('nav.bulkMessages'), icon: MegaphoneIcon },
  ];
  return (
    <AppShell area="admin" homePath="/admin" items={items} mobileMenu="drawer" notice={<TokenBanner />} />
  );
}
