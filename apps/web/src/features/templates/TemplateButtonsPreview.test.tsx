import type { MessageTemplate } from '@hablabot/contract';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TemplateButtonsPreview } from './TemplateButtonsPreview';

const template = (buttons: MessageTemplate['components'][number]['buttons']): MessageTemplate => ({
  id: 1,
  name: 'confirmar_cita',
  language: 'es',
  category: 'UTILITY',
  status: 'APPROVED',
  components: [
    { type: 'BODY', format: null, text: 'Hola {{1}}, ¿confirmas tu cita?', buttons: [] },
    { type: 'BUTTONS', format: null, text: null, buttons },
  ],
});

describe('TemplateButtonsPreview', () => {
  it("lists the template's buttons in order under the preview", () => {
    render(
      <TemplateButtonsPreview
        label="Botones de la plantilla"
        template={template([
          { type: 'QUICK_REPLY', text: 'Sí, confirmo', url: null, phone_number: null },
          { type: 'URL', text: 'Ver cita', url: 'https://clinica.example/cita', phone_number: null },
          { type: 'QUICK_REPLY', text: 'Cambiar hora', url: null, phone_number: null },
        ])}
      />,
    );
    const list = screen.getByRole('list', { name: 'Botones de la plantilla' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Sí, confirmo', '↗ Ver cita', 'Cambiar hora']);
  });

  it('shows nothing for a template without buttons', () => {
    const { container } = render(
      <TemplateButtonsPreview label="Botones" template={{ components: [template([]).components[0]!] }} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
