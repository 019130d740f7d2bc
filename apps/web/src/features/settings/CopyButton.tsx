import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components';
import { CheckIcon, CopyIcon } from './icons';

/** How long the button says 'Copiado'. */
export const COPIED_MS = 2000;

/** Copies text with the Clipboard API, or by selecting it in a hidden field where that API is missing. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

export interface CopyButtonProps {
  /** What is copied; the button is disabled while it is empty. */
  value: string;
  /** The field's name, for the button's accessible name ('Copiar token de verificación'). */
  label: string;
}

/** 'Copiar' button that says 'Copiado' for two seconds (announced to screen readers too). */
export function CopyButton({ value, label }: CopyButtonProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    clearTimeout(timer.current);
    try {
      await copyText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), COPIED_MS);
  };

  return (
    <>
      <Button
        size="sm"
        onClick={copy}
        disabled={!value}
        aria-label={t('settings.copyAria', { field: label })}
        className="settings-copy"
      >
        {state === 'copied' ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
        <span aria-hidden="true">{state === 'copied' ? t('settings.copied') : t('settings.copy')}</span>
      </Button>
      <span className="sr-only" role="status">
        {state === 'copied' ? t('settings.copied') : state === 'failed' ? t('settings.copyFailed') : ''}
      </span>
    </>
  );
}
