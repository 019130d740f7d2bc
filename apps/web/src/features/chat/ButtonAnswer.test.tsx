import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18next } from '../../lib/i18n';
import { setupTestI18n } from '../../test';
import { makeMessage } from './inbox-test-data';
import { MessageBubble } from './MessageBubble';

// A customer's tap on a template's quick reply arrives as a message of type 'button': the chat shows
// what they pressed, marked as a button, never as a file.
const tap = makeMessage({ id: 9, message_type: 'button', content: 'Sí, confirmo' });

describe('a button answer in the chat', () => {
  beforeEach(() => setupTestI18n('es'));

  it("shows the pressed button's text with a 'Botón' marker", () => {
    const { container } = render(
      <I18nextProvider i18n={i18next}>
        <MessageBubble message={tap} />
      </I18nextProvider>,
    );
    const answer = container.querySelector('.chat-bubble__button-answer');
    expect(answer).not.toBeNull();
    expect(answer).toHaveTextContent(/^BotónSí, confirmo$/);
    expect(screen.getByText('Sí, confirmo')).toBeVisible();
    expect(container.querySelector('.chat-bubble__media-error, img, video, audio')).toBeNull();
  });

  it('reads Button in English', async () => {
    await i18next.changeLanguage('en');
    render(
      <I18nextProvider i18n={i18next}>
        <MessageBubble message={tap} />
      </I18nextProvider>,
    );
    expect(screen.getByText('Button')).toBeInTheDocument();
  });
});
