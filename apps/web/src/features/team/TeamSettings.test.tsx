import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import {
  expectNoSeriousA11yViolations,
  makeMedia,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import TeamPage from './TeamPage';
import { SETTINGS, ana, makeQuickReply, teamRoutes } from './test-fixtures';

function renderPage() {
  return renderFeature([{ path: '/admin/team', element: <TeamPage /> }], '/admin/team');
}

const inboxForm = () => screen.getByRole('form', { name: 'Bandeja de entrada' });
const repliesTable = () => screen.getByRole('table', { name: 'Respuestas rápidas' });

beforeEach(async () => {
  await setupTestI18n('es');
  setSession({ token: 't', rol: 'admin', user: { id: ana.id, name: ana.name, email: ana.email } });
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TeamPage: Bandeja de entrada', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the saved settings and saves the three fields', async () => {
    const user = userEvent.setup();
    const api = teamRoutes();
    renderPage();
    const seeAll = await screen.findByRole('checkbox', { name: /Los agentes ven todas las conversaciones/ });
    const autoAssign = within(inboxForm()).getByRole('checkbox', { name: /Asignación automática/ });
    const capacity = within(inboxForm()).getByLabelText(/^Conversaciones abiertas por agente/);
    expect(seeAll).not.toBeChecked();
    expect(autoAssign).not.toBeChecked();
    expect(capacity).toHaveValue(20);

    await user.click(autoAssign);
    await user.clear(capacity);
    await user.click(within(inboxForm()).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(inboxForm()).findByText('El campo conversaciones abiertas por agente es obligatorio.'),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.type(capacity, '5');
    await user.click(within(inboxForm()).getByRole('button', { name: 'Guardar' }));
    expect(await within(inboxForm()).findByText(/Configuración guardada\./)).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toEqual({
      ...SETTINGS,
      agents_see_all: false,
      auto_assign: true,
      agent_capacity: 5,
    });
  });
});

describe('TeamPage: palabras de baja y paso a una persona', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('edits the word lists one per line, refuses an empty list, and sends them as lists', async () => {
    const user = userEvent.setup();
    const api = teamRoutes();
    renderPage();
    const optOut = await within(
      await screen.findByRole('form', { name: 'Bandeja de entrada' }),
    ).findByLabelText(/^Palabras para darse de baja/);
    expect(optOut).toHaveValue('STOP\nBAJA\nCANCELAR\nALTO');
    const optIn = within(inboxForm()).getByLabelText(/^Palabras para volver a suscribirse/);
    const reply = within(inboxForm()).getByLabelText(/^Respuesta a la baja/);
    const phrases = within(inboxForm()).getByLabelText(/^Frases para pedir una persona/);
    const handoff = within(inboxForm()).getByLabelText(/^Mensaje al pasar con una persona/);
    expect(handoff).toHaveValue('Te comunico con una persona del equipo.');

    await user.clear(optIn);
    await user.click(within(inboxForm()).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(inboxForm()).findByText(
        'La lista palabras para volver a suscribirse necesita al menos una entrada.',
      ),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.type(optIn, 'Volver{Enter}{Enter}  Alta ');
    await user.clear(optOut);
    await user.type(optOut, 'Basta{Enter}STOP');
    await user.clear(reply);
    await user.clear(phrases);
    await user.type(phrases, 'x'.repeat(61));
    await user.click(within(inboxForm()).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(inboxForm()).findByText(
        'Cada entrada de frases para pedir una persona admite como máximo 60 caracteres.',
      ),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.clear(phrases);
    await user.type(phrases, 'un humano');
    await user.click(within(inboxForm()).getByRole('button', { name: 'Guardar' }));
    expect(await within(inboxForm()).findByText(/Configuración guardada\./)).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toEqual({
      ...SETTINGS,
      opt_out_keywords: ['Basta', 'STOP'],
      opt_in_keywords: ['Volver', 'Alta'],
      opt_out_reply: null,
      handoff_phrases: ['un humano'],
    });
    await expectNoSeriousA11yViolations(inboxForm());
  });
});

describe('TeamPage: Respuestas rápidas', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists the replies with their shortcut and checks a new shortcut before sending it', async () => {
    const user = userEvent.setup();
    const menu = makeMedia({ id: 4, file_name: 'menú.pdf', kind: 'document', mime_type: 'application/pdf' });
    const api = teamRoutes(undefined, [
      makeQuickReply(),
      makeQuickReply({
        id: 2,
        shortcut: 'menu',
        text: 'Nuestro menú',
        media_id: 4,
        media: { id: 4, name: 'menú.pdf', mime_type: 'application/pdf', url: menu.url },
      }),
    ]);
    api.set('GET /api/v1/admin/media/user', [
      200,
      { media: [menu], pagination: { current_page: 1, per_page: 60, total: 1, last_page: 1 } },
    ]);
    const { container } = renderPage();
    const row = (await within(repliesTable()).findByText('/menu')).closest('tr')!;
    expect(row).toHaveTextContent('Nuestro menú');
    expect(row).toHaveTextContent('menú.pdf');
    expect(within(repliesTable()).getByText('/hola').closest('tr')).toHaveTextContent('Sin archivo');
    await expectNoSeriousA11yViolations(container);

    await user.click(screen.getByRole('button', { name: 'Nueva respuesta rápida' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva respuesta rápida' });
    await user.type(within(dialog).getByLabelText(/^Atajo/), 'Hola Mundo');
    await user.type(within(dialog).getByLabelText(/^Texto/), 'Buenos días');
    await user.click(within(dialog).getByRole('button', { name: 'Crear respuesta' }));
    const shortcut = within(dialog).getByLabelText(/^Atajo/);
    await waitFor(() => expect(shortcut).toHaveAttribute('aria-invalid', 'true'));
    expect(shortcut).toHaveAccessibleDescription(
      'El atajo solo admite letras minúsculas (a-z), números, guion bajo y guion, hasta 32 caracteres.',
    );
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(shortcut);
    await user.type(shortcut, 'buenos-dias');
    await user.click(within(dialog).getByRole('button', { name: 'Elegir de la biblioteca' }));
    const picker = screen.getByRole('dialog', { name: 'Biblioteca de medios' });
    await user.click(await within(picker).findByRole('button', { name: 'Elegir menú.pdf' }));
    expect(within(dialog).getByTestId('quick-reply-media')).toHaveTextContent('menú.pdf');
    await user.click(within(dialog).getByRole('button', { name: 'Crear respuesta' }));
    expect(await screen.findByText(/Respuesta rápida creada\./)).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')!.body).toEqual({
      shortcut: 'buenos-dias',
      text: 'Buenos días',
      media_id: 4,
    });
  });

  it('shows a shortcut already in use (409) on the shortcut, and deletes after the confirmation', async () => {
    const user = userEvent.setup();
    const api = teamRoutes();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Editar la respuesta /hola' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar respuesta rápida' });
    api.set('PUT /api/v1/admin/quick-replies/1', [409, { message: 'Ese atajo ya existe.' }]);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    const shortcut = within(dialog).getByLabelText(/^Atajo/);
    await waitFor(() => expect(shortcut).toHaveAccessibleDescription('Ese atajo ya existe.'));
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toEqual({
      shortcut: 'hola',
      text: '¡Hola! ¿En qué te puedo ayudar?',
      media_id: null,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    await user.click(screen.getByRole('button', { name: 'Eliminar la respuesta /hola' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('/hola');
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText(/Respuesta rápida eliminada\./)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/v1/admin/quick-replies/1',
    ]);
  });
});
