import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { settingsKeys, useSettings } from './api';

/**
 * The banner every admin screen shows while WhatsApp refuses the company's token (`whatsapp_status`
 * 'token_invalid': it expired or was revoked), with a link to the settings. The settings are read again
 * on each navigation, so it goes away on the next screen once a connection test or a send worked (at
 * once after a successful test on the settings screen). Admins only: agents cannot read the settings.
 */
export function TokenBanner() {
  const { t } = useTranslation();
  const settings = useSettings();
  const queryClient = useQueryClient();
  const location = useLocation();
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
  }, [location.pathname]);

  if (settings.data?.whatsapp_status !== 'token_invalid') return null;
  return (
    <div className="token-banner" role="alert" data-testid="token-banner">
      {t('shell.tokenBanner')}
      <Link to="/admin/setting">{t('shell.tokenBannerLink')}</Link>
    </div>
  );
}
