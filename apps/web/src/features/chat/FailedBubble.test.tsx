import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../lib/i18n';
import { setupTestI18n } from '../../test';
import { makeMessage } from './inbox-test-data';
import { MessageBubble } from './MessageBubble';

// A message WhatsApp refused shows what happened and what to do (the server's explanation, in the
// reader's language), then Meta's code and title; 'Reenviar' only where sending again can help.
const failed = (code: number, resendable: boolean, explanation: string, title: string) =>
  makeMessage({
    id: 30,
    sender_type: 'admin',
    content: 'Hola',
    status: 4,
    status_name: 'failed',
    error_code: code,
    error_message: `(#${code}) ${title}`,
    error: { code, title, explanation, resendable },
  });

function renderBubble(message: ReturnType<typeof makeMessage>, onResend = vi.fn()) {
  render(
    <I18nextProvider i18n={i18next}>
      <MessageBubble message={message} onResend={onResend} />
    </I18nextProvider>,
  );
  return onResend;
}

describe('a failed message in the chat', () => {
  beforeEach(() => setupTestI18n('es'));

  it('shows the explanation and hides the resend for a number not on WhatsApp (131026)', () => {
    renderBubble(
      failed(131026, false, 'WhatsApp no pudo entregar el mensaje a este número.', 'Message undeliverable'),
    );
    expect(screen.getByText('Este mensaje no se ha enviado')).toBeInTheDocument();
    expect(screen.getByText('WhatsApp no pudo entregar el mensaje a este número.')).toBeVisible();
    expect(screen.getByText('WhatsApp 131026: Message undeliverable')).toBeInTheDocument();
    expect(screen.queryByText('(#131026) Message undeliverable')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reenviar' })).not.toBeInTheDocument();
  });

  it('hides the resend for a template that does not exist (132001)', () => {
    renderBubble(failed(132001, false, 'La plantilla no existe en ese idioma.', 'Template does not exist'));
    expect(screen.getByText('La plantilla no existe en ese idioma.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Reenviar' })).not.toBeInTheDocument();
  });

  it('keeps the resend where sending again can help (130429) and sends it', async () => {
    const onResend = renderBubble(
      failed(130429, true, 'Se enviaron demasiados mensajes por segundo.', 'Rate limit hit'),
    );
    expect(screen.getByText('Se enviaron demasiados mensajes por segundo.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Reenviar' }));
    expect(onResend).toHaveBeenCalledTimes(1);
  });

  it('shows the reason of a message from before explanations existed, with its resend', () => {
    renderBubble(
      makeMessage({
        id: 31,
        sender_type: 'admin',
        content: 'Hola',
        status: 4,
        error_message: 'Número no válido',
      }),
    );
    expect(screen.getByText('Número no válido')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reenviar' })).toBeInTheDocument();
  });

  it('reads the code line in English', async () => {
    await i18next.changeLanguage('en');
    renderBubble(failed(131047, false, 'More than 24 hours have passed.', 'Re-engagement message'));
    expect(screen.getByText('More than 24 hours have passed.')).toBeVisible();
    expect(screen.getByText('WhatsApp 131047: Re-engagement message')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend' })).not.toBeInTheDocument();
  });
});
