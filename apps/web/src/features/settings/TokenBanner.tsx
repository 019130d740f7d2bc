import type { Settings } from '@hablabot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServerEvents } from '../../lib/use-server-events';
import { settingsKeys, useSettings } from './api';

/**
 * The banner every admin screen shows while WhatsApp refuses the company's token (`whatsapp_status`
 * 'token_invalid': it expired or was revoked), with a link to the settings. Live both ways: the server
 * publishes 'channel.whatsapp_status' whenever a send, the templates' sync, a media download or a
 * connection test sets or clears the refusal, and the cached settings take it at once, so the banner
 * appears and goes without a reload or a navigation. Events missed (`stream.reset`) read the settings
 * again. Admins only: agents cannot read the settings (the layout does not mount it for them).
 */
export function TokenBanner() {
  const { t } = useTranslation();
  const settings = useSettings();
  const queryClient = useQueryClient();

  useServerEvents((event) => {
    if (event.type === 'stream.reset') {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      return;
    }
    if (event.type !== 'channel.whatsapp_status') return;
    queryClient.setQueryData<Settings>(settingsKeys.all, (current) =>
      current ? { ...current, ...event.data } : current,
    );
  });

  if (settings.data?.whatsapp_status !== 'token_invalid') return null;
  return (
    <div className="token-banner" role="alert" data-testid="token-banner">
      {t('shell.tokenBanner')}
      <Link to="/admin/setting">{t('shell.tokenBannerLink')}</Link>
    </div>
  );
}
