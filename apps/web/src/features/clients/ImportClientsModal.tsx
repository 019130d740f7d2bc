import { IMPORT_COLUMNS, type ImportClientsResponse, type ImportColumn } from '@hablabot/contract';
import { type ChangeEvent, type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, MessageBox, Modal } from '../../components';
import { AlertIcon } from '../../components/lib/icons';
import { cx } from '../../components/lib/text';
import { isApiError } from '../../lib/api-client';
import { useImportClients } from './api';
import { ImportResult } from './ImportResult';
import { DownloadIcon } from '../../components/lib/icons';
import type { CsvProblem, ParsedClientsCsv } from './csv';
import {
  IMPORT_COLUMN_ORDER,
  IMPORT_TEMPLATE_URL,
  looksLikeCsv,
  REQUIRED_IMPORT_COLUMNS,
  readFileText,
} from './import-columns';

/** Headers shown in the help table: the main Spanish and English names first, then the rest. */
const HEADLINE_HEADERS: Record<ImportColumn, readonly string[]> = {
  name: ['nombre', 'name'],
  last_names: ['apellidos', 'last_names'],
  whatsapp_cellphone: ['celular', 'whatsapp', 'phone'],
  email: ['correo', 'email'],
  projects: ['proyectos', 'projects'],
  segments: ['segmentos', 'segments'],
};

type Step =
  | { kind: 'idle' }
  | { kind: 'reading'; fileName: string }
  | { kind: 'parsed'; fileName: string; parsed: ParsedClientsCsv }
  | { kind: 'invalid'; fileName: string; message: string }
  | { kind: 'importing'; fileName: string; count: number }
  | { kind: 'done'; fileName: string; result: ImportClientsResponse; parsed: ParsedClientsCsv };

export interface ImportClientsModalProps {
  onClose: () => void;
}

/**
 * Import modal: the CSV is parsed in the browser, checked for
 * known columns, posted in one call, and the per-row outcome is listed under 'Errores' and 'Éxitos'.
 */
export function ImportClientsModal({ onClose }: ImportClientsModalProps) {
  const { t } = useTranslation();
  const baseId = useId();
  const inputId = `${baseId}-file`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const importClients = useImportClients();
  const importing = step.kind === 'importing';

  const problemText = (problem: CsvProblem): string => {
    switch (problem.kind) {
      case 'empty':
        return t('clients.import.empty');
      case 'noKnownColumns':
        return t('clients.import.noKnownColumns');
      case 'tooMany':
        return t('clients.import.tooMany', { max: problem.max.toLocaleString() });
      case 'malformed':
        return t('clients.import.malformed', { row: problem.row });
    }
  };

  const columnLabel = (column: ImportColumn) => t(`clients.import.columns.${column}`);

  const chooseFile = async (file: File | undefined) => {
    setFailure(null);
    if (!file) return;
    if (!looksLikeCsv(file)) {
      setStep({ kind: 'invalid', fileName: file.name, message: t('clients.import.notCsv') });
      return;
    }
    setStep({ kind: 'reading', fileName: file.name });
    try {
      // Papa Parse loads with the first file, not with the page.
      const [{ parseClientsCsv }, text] = await Promise.all([import('./csv'), readFileText(file)]);
      const parsed = parseClientsCsv(text);
      setStep(
        parsed.problem
          ? { kind: 'invalid', fileName: file.name, message: problemText(parsed.problem) }
          : { kind: 'parsed', fileName: file.name, parsed },
      );
    } catch (error) {
      console.error('Reading the CSV failed', error);
      setStep({ kind: 'invalid', fileName: file.name, message: t('clients.import.readError') });
    }
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    void chooseFile(event.target.files?.[0]);
    // Choosing the same file again (after fixing it) must fire change again.
    event.target.value = '';
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!importing) void chooseFile(event.dataTransfer.files?.[0]);
  };

  const submit = async () => {
    if (step.kind !== 'parsed') return;
    const { fileName, parsed } = step;
    setFailure(null);
    setStep({ kind: 'importing', fileName, count: parsed.rows.length });
    try {
      const result = await importClients.mutateAsync(parsed.rows);
      setStep({ kind: 'done', fileName, result, parsed });
    } catch (error) {
      console.error('Importing clients failed', error);
      setStep({ kind: 'parsed', fileName, parsed });
      setFailure(
        isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
          ? error.serverMessage
          : t('clients.import.failed'),
      );
    }
  };

  const startOver = () => {
    setFailure(null);
    setStep({ kind: 'idle' });
    inputRef.current?.focus();
  };

  const fileName = step.kind === 'idle' ? null : step.fileName;

  return (
    <Modal
      open
      onClose={() => {
        if (!importing) onClose();
      }}
      closeOnEscape={!importing}
      closeOnBackdrop={false}
      hideCloseButton={importing}
      title={t('clients.import.title')}
      description={t('clients.import.description')}
      size="lg"
      footer={
        step.kind === 'done' ? (
          <>
            <Button variant="secondary" onClick={startOver}>
              {t('clients.import.another')}
            </Button>
            <Button variant="primary" onClick={onClose}>
              {t('clients.import.close')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose} disabled={importing}>
              {t('clients.form.cancel')}
            </Button>
            <Button variant="primary" onClick={submit} disabled={step.kind !== 'parsed'} busy={importing}>
              {t('clients.import.submit')}
            </Button>
          </>
        )
      }
    >
      <div className="clients-import">
        {step.kind !== 'done' && (
          // biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a pointer shortcut; the file input covers the keyboard
          <div
            className={cx(
              'clients-drop',
              dragging && 'clients-drop--active',
              importing && 'clients-drop--busy',
            )}
            onDragOver={(event) => {
              event.preventDefault();
              if (!importing) setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <label htmlFor={inputId} className="clients-drop__label">
              {t('clients.import.file')}
            </label>
            <div className="clients-drop__row">
              <input
                ref={inputRef}
                id={inputId}
                type="file"
                accept=".csv,text/csv"
                className="clients-drop__input"
                onChange={onInputChange}
                disabled={importing}
                aria-describedby={`${baseId}-file-status`}
              />
              <span className="clients-drop__button" aria-hidden="true">
                {fileName ? t('clients.import.change') : t('clients.import.choose')}
              </span>
              <span className="clients-drop__name" id={`${baseId}-file-status`}>
                {fileName ?? t('clients.import.noFile')}
              </span>
            </div>
            <p className="clients-drop__hint">{t('clients.import.dropHint')}</p>
            <a
              className="clients-import__template"
              href={IMPORT_TEMPLATE_URL}
              download="clientes-plantilla.csv"
            >
              <DownloadIcon size={14} />
              {t('clients.import.template')}
            </a>
          </div>
        )}

        {step.kind === 'reading' && <p className="clients-import__note">{t('clients.import.reading')}</p>}
        {step.kind === 'invalid' && (
          <MessageBox type="error" message={step.message} onDismiss={startOver} dismissible={false} />
        )}
        {failure && <MessageBox type="error" message={failure} onDismiss={() => setFailure(null)} />}

        {step.kind === 'parsed' && (
          <div className="clients-import__summary" role="status">
            <p className="clients-import__ready">
              {t('clients.import.ready', { count: step.parsed.rows.length })}
            </p>
            <p className="clients-import__note">
              {t('clients.import.detected', { columns: step.parsed.columns.map(columnLabel).join(', ') })}
            </p>
            {step.parsed.ignored.length > 0 && (
              <p className="clients-import__note">
                {t('clients.import.ignored', { columns: step.parsed.ignored.join(', ') })}
              </p>
            )}
            {step.parsed.missing.length > 0 && (
              <p className="clients-import__warning">
                <AlertIcon size={16} />
                {t('clients.import.missing', { columns: step.parsed.missing.map(columnLabel).join(', ') })}
              </p>
            )}
          </div>
        )}

        {step.kind === 'importing' && (
          <div className="clients-progress">
            <div
              className="clients-progress__track"
              role="progressbar"
              aria-label={t('clients.import.importing', { count: step.count })}
              aria-valuetext={t('clients.import.importing', { count: step.count })}
            >
              <span className="clients-progress__bar" />
            </div>
            <p className="clients-progress__label" aria-hidden="true">
              {t('clients.import.importing', { count: step.count })}
            </p>
          </div>
        )}

        {step.kind === 'done' && (
          <ImportResult result={step.result} parsed={step.parsed} fileName={step.fileName} />
        )}

        {step.kind !== 'done' && (
          <details className="clients-columns" open>
            <summary>{t('clients.import.columnsTitle')}</summary>
            <p className="clients-import__note">{t('clients.import.columnsIntro')}</p>
            <table className="clients-columns__table">
              <thead>
                <tr>
                  <th scope="col">{t('clients.import.columnHeader')}</th>
                  <th scope="col">{t('clients.import.headersHeader')}</th>
                </tr>
              </thead>
              <tbody>
                {IMPORT_COLUMN_ORDER.map((column) => {
                  const headline = HEADLINE_HEADERS[column];
                  const others = IMPORT_COLUMNS[column].filter((alias) => !headline.includes(alias));
                  const required = REQUIRED_IMPORT_COLUMNS.includes(column);
                  return (
                    <tr key={column}>
                      <th scope="row">
                        <span className="clients-columns__name">{columnLabel(column)}</span>
                        <span
                          className={cx('clients-columns__tag', required && 'clients-columns__tag--required')}
                        >
                          {required ? t('clients.import.requiredTag') : t('clients.import.optionalTag')}
                        </span>
                      </th>
                      <td>
                        {headline.map((alias) => (
                          <code key={alias}>{alias}</code>
                        ))}
                        {others.length > 0 && (
                          <span className="clients-columns__more">{others.join(', ')}</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </details>
        )}
      </div>
    </Modal>
  );
}
