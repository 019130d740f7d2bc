import { useTranslation } from 'react-i18next';
import { AppShell, type ShellNavItem } from './AppShell';
import {
  BuildingIcon,
  ChartIcon,
  DashboardIcon,
  LayersIcon,
  MessageSquareIcon,
  SettingsIcon,
  ShieldIcon,
} from '../components/lib/icons';

/** Super-admin layout: Dashboard, Compañías, Roles, Planes, Analítica, Webhooks fallidos, Configuración. */
export default function SuperAdminLayout() {
  const { t } = useTranslation();
  const items: ShellNavItem[] = [
    { to: '/super-admin', label: t('superAdminNav.dashboard'), icon: DashboardIcon, end: true },
    { to: '/super-admin/companies', label: t('superAdminNav.companies'), icon: BuildingIcon },
    { to: '/super-admin/roles', label: t('superAdminNav.roles'), icon: ShieldIcon },
    { to: '/super-admin/plans', label: t('superAdminNav.plans'), icon: LayersIcon },
    { to: '/super-admin/analytics', label: t('superAdminNav.analytics'), icon: ChartIcon },
    { to: '/super-admin/webhooks', label: t('superAdminNav.webhooks'), icon: MessageSquareIcon },
    { to: '/super-admin/settings', label: t('superAdminNav.settings'), icon: SettingsIcon },
  ];
  return <AppShell area="super-admin" homePath="/super-admin" items={items} mobileMenu="popup" />;
}
