// Deterministic sample data for the widgets gallery (same rows on every load, so measurements compare).

export interface GallerySegment {
  id: number;
  name: string;
  color: string | null;
}

export interface GalleryClient {
  id: number;
  name: string;
  last_names: string;
  whatsapp_cellphone: string;
  email: string;
  segments: number[];
}

export const SEGMENTS: GallerySegment[] = [
  { id: 1, name: 'Clientes VIP', color: '#7300ff' },
  { id: 2, name: 'Préstamos', color: '#1a73e8' },
  { id: 3, name: 'Educación', color: '#128c7e' },
  { id: 4, name: 'Nuevos', color: '#f59e0b' },
  { id: 5, name: 'Inactivos', color: null },
  { id: 6, name: 'Campaña de verano', color: '#d6336c' },
];

const FIRST = [
  'José',
  'María',
  'Ángela',
  'Luis',
  'Beatriz',
  'Óscar',
  'Nuria',
  'Íñigo',
  'Carmen',
  'Raúl',
  'Sofía',
  'Andrés',
  'Lucía',
  'Martín',
  'Valentina',
  'Sebastián',
  'Camila',
  'Tomás',
  'Julián',
  'Inés',
];
const LAST = [
  'Pérez',
  'García',
  'Rodríguez',
  'López',
  'Martínez',
  'Sánchez',
  'Gómez',
  'Fernández',
  'Díaz',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Núñez',
  'Castillo',
  'Ortega',
  'Peña',
  'Ibáñez',
];

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plain(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function generateClients(count: number, seed = 42): GalleryClient[] {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const clients: GalleryClient[] = [];
  for (let i = 1; i <= count; i++) {
    const name = pick(FIRST);
    const last = `${pick(LAST)} ${pick(LAST)}`;
    const segmentCount = Math.floor(random() * 3);
    const segments = new Set<number>();
    for (let s = 0; s < segmentCount; s++) segments.add(pick(SEGMENTS).id);
    clients.push({
      id: i,
      name,
      last_names: last,
      whatsapp_cellphone: `521${String(5500000000 + Math.floor(random() * 499999999))}`,
      email: `${plain(name)}.${plain(last.split(' ')[0])}${i}@ejemplo.mx`,
      segments: [...segments],
    });
  }
  return clients;
}
