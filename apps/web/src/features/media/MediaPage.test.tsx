import type { MediaItem } from '@hablabot/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  jsonResponse,
  makeMedia,
  mockFetch,
  mockXhr,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import MediaPage from './MediaPage';
import { MediaPickerDialog } from './MediaPickerDialog';
import { uploadProblem } from './upload-check';

const MB = 1024 * 1024;
const LIST = 'GET /api/v1/admin/media/user';

const logo = makeMedia({ id: 3, file_name: 'logo.png', kind: 'image' });
const menu = makeMedia({
  id: 2,
  file_name: 'menú del día.pdf',
  kind: 'document',
  mime_type: 'application/pdf',
  size: 120_000,
});
const video = makeMedia({ id: 1, file_name: 'bienvenida.mp4', kind: 'video', mime_type: 'video/mp4' });

function listBody(media: MediaItem[], page = 1, lastPage = 1, total = media.length) {
  return { media, pagination: { current_page: page, per_page: 60, total, last_page: lastPage } };
}

function renderPage() {
  return renderFeature([{ path: '/admin/media', element: <MediaPage /> }], '/admin/media');
}

/** A file of `size` bytes without allocating them (only the size is read before sending). */
function fileOf(name: string, size: number, type = 'application/octet-stream') {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const chooseInput = () => screen.getByLabelText('Seleccionar archivo');

beforeEach(async () => {
  await setupTestI18n('es');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('MediaPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the upload form and the library: thumbnails for images, an icon and a link for the rest', async () => {
    mockFetch({ [LIST]: [200, listBody([logo, menu, video])] });
    const { container } = renderPage();
    expect(screen.getByRole('heading', { name: 'Subir media' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /^Biblioteca de medios/ })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Buscar por nombre...')).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: /Biblioteca de medios/ });
    const tiles = within(grid).getAllByRole('listitem');
    expect(tiles).toHaveLength(3);
    expect(
      within(tiles[0]).getByRole('button', { name: 'Ver logo.png' }).querySelector('img'),
    ).toHaveAttribute('src', `/storage/${logo.file_path}`);
    const link = within(tiles[1]).getByRole('link', { name: 'Abrir menú del día.pdf' });
    expect(link).toHaveAttribute('href', `/storage/${menu.file_path}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.querySelector('img')).toBeNull();
    expect(tiles[1]).toHaveTextContent('Documento · 117 KB');
    expect(screen.getByText('3 archivos')).toBeInTheDocument();
    await expectNoSeriousA11yViolations(container);
  });

  it('opens an image in a preview and closes it with Cerrar', async () => {
    const user = userEvent.setup();
    mockFetch({ [LIST]: [200, listBody([logo, menu])] });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Ver logo.png' }));
    const dialog = screen.getByRole('dialog', { name: 'logo.png' });
    expect(within(dialog).getByRole('img', { name: 'logo.png' })).toHaveAttribute(
      'src',
      `/storage/${logo.file_path}`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("says 'Please select a file' and sends nothing when no file is chosen", async () => {
    const user = userEvent.setup();
    mockFetch({ [LIST]: [200, listBody([])] });
    const xhr = mockXhr();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Subir' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a file');
    expect(xhr.requests).toHaveLength(0);
  });

  it('refuses a file that is too big or of a type WhatsApp cannot send before sending it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    mockFetch({ [LIST]: [200, listBody([])] });
    const xhr = mockXhr();
    renderPage();
    await user.upload(chooseInput(), fileOf('foto.jpg', 5 * MB + 1, 'image/jpeg'));
    await user.click(screen.getByRole('button', { name: 'Subir' }));
    expect(screen.getByRole('alert')).toHaveTextContent('La imagen supera el tamaño máximo de 5 MB.');
    await user.upload(chooseInput(), fileOf('pagina.html', 100, 'text/html'));
    await user.click(screen.getByRole('button', { name: 'Subir' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/^El archivo no es de un tipo admitido/);
    expect(xhr.requests).toHaveLength(0);
  });

  it('uploads with progress, then shows the server’s message and the new file', async () => {
    const user = userEvent.setup();
    const api = mockFetch({ [LIST]: [200, listBody([])] });
    const xhr = mockXhr();
    renderPage();
    expect(await screen.findByText('No hay archivos para mostrar o hubo un error.')).toBeInTheDocument();
    const file = new File([new Uint8Array(2048)], 'foto.png', { type: 'image/png' });
    await user.upload(chooseInput(), file);
    expect(screen.getByText('foto.png · 2 KB')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Subir' }));
    const request = await xhr.next();
    expect(request.url).toBe('/api/v1/admin/media/upload');
    const sent = request.body.get('file') as File;
    expect([sent.name, sent.size]).toEqual(['foto.png', 2048]);
    act(() => request.progress(40, 100));
    expect(screen.getByText('Subiendo foto.png: 40 %')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('value', '40');
    const uploaded = makeMedia({ id: 9, file_name: 'foto.png' });
    api.set(LIST, [200, listBody([uploaded])]);
    act(() =>
      request.respond(201, { success: true, message: '¡Archivo cargado correctamente!', media: uploaded }),
    );
    expect(await screen.findByText('¡Archivo cargado correctamente!')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Ver foto.png' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Ningún archivo seleccionado')).toBeInTheDocument();
  });

  it('lists a 422’s messages, says File upload failed otherwise, and can cancel', async () => {
    const user = userEvent.setup();
    mockFetch({ [LIST]: [200, listBody([])] });
    const xhr = mockXhr();
    renderPage();
    await user.upload(chooseInput(), new File(['<html>'], 'foto.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Subir' }));
    const refused = 'El contenido del archivo no es de un tipo admitido.';
    act(() => {
      void xhr.next().then((r) => r.respond(422, { message: refused, errors: { file: [refused] } }));
    });
    const list = await screen.findByText('Por favor corrige los siguientes errores:');
    expect(list.closest('[role="alert"]')).toHaveTextContent(refused);

    vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Subir' }));
    act(() => {
      void xhr.next().then((r) => r.respond(500, { message: 'Ocurrió un error interno' }));
    });
    expect(await screen.findByText('Error: File upload failed')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Subir' }));
    const pending = await xhr.next();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(pending.aborted).toBe(true);
    expect(await screen.findByText('Subida cancelada.')).toBeInTheDocument();
  });

  it('searches by name on the server once typing pauses', async () => {
    const user = userEvent.setup();
    const api = mockFetch({
      [LIST]: (call) =>
        jsonResponse(
          200,
          listBody(
            ((search) => (search === 'men' ? [menu] : search ? [] : [logo, menu]))(
              new URL(call.url, 'http://localhost').searchParams.get('search'),
            ),
          ),
        ),
    });
    renderPage();
    await screen.findByRole('button', { name: 'Ver logo.png' });
    await user.type(screen.getByPlaceholderText('Buscar por nombre...'), 'men');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ver logo.png' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Abrir menú del día.pdf' })).toBeInTheDocument();
    const searches = api.calls.filter((c) => c.url.includes('search='));
    expect(searches.map((c) => c.url)).toEqual(['/api/v1/admin/media/user?search=men&page=1&per_page=60']);
    await user.type(screen.getByPlaceholderText('Buscar por nombre...'), 'zz');
    expect(await screen.findByText('Ningún archivo coincide con «menzz».')).toBeInTheDocument();
  });

  it('loads the next page on demand', async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST]: (call) =>
        jsonResponse(
          200,
          call.url.includes('page=2') ? listBody([video], 2, 2, 3) : listBody([logo, menu], 1, 2, 3),
        ),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByRole('link', { name: 'Abrir bienvenida.mp4' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
  });

  it('tells when the library cannot be loaded', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ [LIST]: [500, { message: 'Ocurrió un error interno' }] });
    renderPage();
    expect(await screen.findByText('Error: Error al cargar los archivos multimedia')).toBeInTheDocument();
    expect(screen.getByText('No hay archivos para mostrar o hubo un error.')).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Error fetching media files', expect.anything());
  });

  it('deletes a file after confirmation', async () => {
    const user = userEvent.setup();
    const api = mockFetch({
      [LIST]: [200, listBody([logo, menu])],
      'DELETE /api/v1/admin/media/2': [200, { message: 'Archivo eliminado correctamente.' }],
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Eliminar menú del día.pdf' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent(
      '¿Estás seguro de que deseas eliminar este archivo? Esta acción no se puede deshacer.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Eliminar menú del día.pdf' }));
    api.set(LIST, [200, listBody([logo])]);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Archivo eliminado correctamente.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Abrir menú del día.pdf' })).toBeNull());
  });

  it('speaks English', async () => {
    await setupTestI18n('en');
    mockFetch({ [LIST]: [200, listBody([])] });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Upload media' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search by name...')).toBeInTheDocument();
    expect(await screen.findByText('There are no files to show or there was an error.')).toBeInTheDocument();
  });
});

describe('MediaPickerDialog', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists the library and hands back the chosen file', async () => {
    const user = userEvent.setup();
    mockFetch({ [LIST]: [200, listBody([logo, menu])] });
    const onSelect = vi.fn();
    const onClose = vi.fn();
    renderFeature(
      [{ path: '/', element: <MediaPickerDialog open onClose={onClose} onSelect={onSelect} /> }],
      '/',
    );
    const dialog = screen.getByRole('dialog', { name: 'Biblioteca de medios' });
    await user.click(await within(dialog).findByRole('button', { name: 'Elegir menú del día.pdf' }));
    expect(onSelect).toHaveBeenCalledWith(menu);
    expect(onClose).toHaveBeenCalled();
  });

  it("says 'No hay archivos disponibles' for an empty library", async () => {
    mockFetch({ [LIST]: [200, listBody([])] });
    renderFeature(
      [{ path: '/', element: <MediaPickerDialog open onClose={() => {}} onSelect={() => {}} /> }],
      '/',
    );
    expect(await screen.findByText('No hay archivos disponibles')).toBeInTheDocument();
  });
});

describe('uploadProblem', () => {
  it('checks the name and size the way the server will', () => {
    expect(uploadProblem(null)).toBe('media.upload.required');
    expect(uploadProblem(fileOf('a.png', 5 * MB))).toBeNull();
    expect(uploadProblem(fileOf('a.JPEG', 5 * MB + 1))).toBe('media.upload.tooLarge.image');
    expect(uploadProblem(fileOf('a.mp4', 16 * MB + 1))).toBe('media.upload.tooLarge.video');
    expect(uploadProblem(fileOf('a.ogg', 16 * MB + 1))).toBe('media.upload.tooLarge.audio');
    expect(uploadProblem(fileOf('a.pdf', 100 * MB))).toBeNull();
    expect(uploadProblem(fileOf('a.docx', 100 * MB + 1))).toBe('media.upload.tooLarge.document');
    expect(uploadProblem(fileOf('a.gif', 10))).toBe('media.upload.unsupported');
    expect(uploadProblem(fileOf('sin-extension', 10))).toBe('media.upload.unsupported');
  });
});
