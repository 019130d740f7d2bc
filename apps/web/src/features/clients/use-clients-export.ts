import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { useMessageBox } from '../../components';
import { fetchClients, useUiLanguage } from './api';
import { downloadClientsXlsx, EXPORT_COLUMNS, type ExportColumn } from './export';

/** The green banner after a save or delete stays 4 s. */
export const SUCCESS_MESSAGE_MS = 4000;

/**
 * 'Exportar': every client of the company to clients.xlsx, with how many are loaded so far. `known`
 * says the unfiltered table already showed nobody (no need to ask the server again).
 */
export function useClientsExport(banner: ReturnType<typeof useMessageBox>, known: { empty: boolean }) {
  const { t } = useTranslation();
  const language = useUiLanguage();
  const [exporting, setExporting] = useState(false);
  const [exportProgress, setExportProgress] = useState<{ loaded: number; total: number } | null>(null);

  const exportEmpty = () => banner.show('info', t('clients.feedback.exportEmpty'), SUCCESS_MESSAGE_MS);

  /** Writes every client of the company (not only the page or the filter on screen) to clients.xlsx. */
  const exportClients = async () => {
    // The unfiltered table already says there is nobody to export: no need to ask again.
    if (known.empty) {
      exportEmpty();
      return;
    }
    setExporting(true);
    setExportProgress(null);
    try {
      const all = await fetchClients(language, undefined, (loaded, total) =>
        setExportProgress({ loaded, total }),
      );
      if (all.clients.length === 0) {
        exportEmpty();
        return;
      }
      const headers = Object.fromEntries(
        EXPORT_COLUMNS.map((column) => [column, t(`clients.export.headers.${column}`)]),
      ) as Record<ExportColumn, string>;
      await downloadClientsXlsx(all.clients, headers);
    } catch (error) {
      console.error('Exporting clients failed', error);
      banner.error(t('clients.feedback.exportError'));
    } finally {
      setExporting(false);
      setExportProgress(null);
    }
  };
  return { exporting, exportProgress, exportClients };
}
