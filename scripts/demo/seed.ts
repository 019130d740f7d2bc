import { randomBytes } from 'node:crypto';
import { type DemoPhoneNumber, postCustomerMessage } from './customer';

// The demo's company, filled in through the server's own HTTP API (the same calls the web app makes), so
// every rule and default of the server applies to it exactly as to a company set up by hand.

export interface DemoSecrets {
  whatsAppToken: string;
  appSecret: string;
  hubVerifyToken: string;
  openAiKey: string;
  openAiModel: string;
}

export interface SeedOptions {
  serverUrl: string;
  superAdmin: { email: string; password: string };
  admin: { name: string; email: string; password: string; company: string };
  number: DemoPhoneNumber;
  secrets: DemoSecrets;
  graphApiUrl: string;
  openAiChatEndpoint: string;
  /** How many sends the fake Graph API has accepted so far (to place the history among them). */
  sendsSoFar?: () => number;
}

export interface SeededClient {
  id: number;
  name: string;
  phone: string;
  segments: string[];
}

export interface SeedResult {
  adminToken: string;
  botId: number;
  clients: SeededClient[];
  /** The customer messages written as history, oldest first. */
  history: { phone: string; text: string; sendsBefore: number }[];
}

/** A JSON call to the server; throws with the server's answer when it is not a 2xx. */
async function call<T>(serverUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${serverUrl}/api/v1${path}`, {
    method,
    headers: {
      accept: 'application/json',
      'accept-language': 'es',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : null) as T;
}

async function signIn(serverUrl: string, email: string, password: string): Promise<string> {
  const answer = await call<{ success: boolean; token?: string; message?: string }>(
    serverUrl,
    'POST',
    '/auth/login',
    { email, password },
  );
  if (!answer.token) throw new Error(`Could not sign in as ${email}: ${answer.message ?? 'no token'}`);
  return answer.token;
}

const SEGMENTS = [
  {
    name: 'Clientes frecuentes',
    color: '#2E7D32',
    rules: 'Compran al menos una vez al mes en la cafetería o en la tienda en línea.',
  },
  { name: 'Nuevos', color: '#1565C0', rules: 'Su primera compra fue hace menos de 30 días.' },
  { name: 'Mayoristas', color: '#EF6C00', rules: 'Restaurantes y oficinas que compran café por kilo.' },
];

const PERSONALITY = `Eres Aurora, la asistente de Café Aurora, una tostaduría de café de especialidad en Ciudad de México.
Respondes en el idioma del cliente, con calidez y en pocas frases. Horario: lunes a sábado de 8:00 a 20:00.
Envíos a todo México en 48 horas. Si no sabes algo o el cliente pide hablar con una persona, dilo con amabilidad:
una persona del equipo le escribirá pronto.`;

const INSTRUCTIONS = [
  {
    ask: 'Descuento de bienvenida',
    reply:
      'A los clientes nuevos ofréceles un 10 % de descuento en su segunda compra con el código BIENVENIDA10.',
    segments: ['Nuevos'],
  },
  {
    ask: 'Pedidos al por mayor',
    reply:
      'A los mayoristas diles que los pedidos de 5 kg o más tienen precio especial y que un asesor les enviará la lista de precios.',
    segments: ['Mayoristas', 'Clientes frecuentes'],
  },
];

const PEOPLE: [string, string, string[]][] = [
  ['Lucía', 'Fernández Ruiz', ['Clientes frecuentes']],
  ['Mateo', 'García López', ['Nuevos']],
  ['Valentina', 'Martínez Soto', ['Clientes frecuentes']],
  ['Santiago', 'Hernández Vega', ['Mayoristas']],
  ['Camila', 'Rodríguez Peña', ['Nuevos']],
  ['Sebastián', 'López Mora', ['Clientes frecuentes', 'Mayoristas']],
  ['Sofía', 'González Ríos', ['Nuevos']],
  ['Diego', 'Pérez Castillo', ['Mayoristas']],
  ['Isabella', 'Sánchez Ortiz', ['Clientes frecuentes']],
  ['Emiliano', 'Ramírez Cruz', ['Nuevos']],
  ['Regina', 'Torres Delgado', ['Clientes frecuentes']],
  ['Leonardo', 'Flores Navarro', ['Mayoristas']],
  ['Ximena', 'Rivera Campos', ['Nuevos']],
  ['Daniel', 'Gómez Herrera', ['Clientes frecuentes']],
  ['Renata', 'Díaz Medina', ['Nuevos', 'Clientes frecuentes']],
  ['Nicolás', 'Morales Aguilar', ['Mayoristas']],
  ['Mariana', 'Jiménez Reyes', ['Clientes frecuentes']],
  ['Alejandro', 'Vargas Romero', ['Nuevos']],
  ['Andrea', 'Castro Guzmán', ['Mayoristas']],
  ['Tomás', 'Ruiz Salazar', ['Clientes frecuentes']],
];

/** What some clients already wrote, oldest first: [client index, hours ago, text]. */
const HISTORY: [number, number, string][] = [
  [0, 20, 'Hola, ¿tienen café de Chiapas en grano?'],
  [0, 19.5, 'Perfecto, quiero 1 kg. ¿Cuánto tarda el envío a Puebla?'],
  [1, 12, 'Buenas tardes, es mi primera compra. ¿Qué me recomiendan para prensa francesa?'],
  [3, 8, 'Somos un restaurante y necesitamos 10 kg al mes. ¿Tienen precio por mayoreo?'],
  [5, 5, '¿Abren el domingo?'],
  [8, 3, 'Mi pedido #1042 no ha llegado, ¿me ayudan?'],
  [8, 2.9, 'Lo pedí el lunes.'],
  [11, 1, 'Hola, quisiera una cotización de 20 kg de tueste medio.'],
];

/** The phone of the n-th demo client: a Mexican mobile number, digits only. */
export const demoPhone = (n: number) => `5215550100${String(n + 1).padStart(2, '0')}`;

export async function seedDemo(options: SeedOptions): Promise<SeedResult> {
  const { serverUrl } = options;
  const superToken = await signIn(serverUrl, options.superAdmin.email, options.superAdmin.password);
  const roles = await call<{ data: { id: number; name: string }[] }>(
    serverUrl,
    'GET',
    '/super-admin/roles',
    undefined,
    superToken,
  );
  const adminRole = roles.data.find((role) => role.name === 'admin');
  if (!adminRole) throw new Error('The server has no admin role');
  await call(
    serverUrl,
    'POST',
    '/super-admin/create-user',
    {
      name: options.admin.name,
      email: options.admin.email,
      password: options.admin.password,
      roles: [adminRole.id],
      company_name: options.admin.company,
    },
    superToken,
  );
  await call(serverUrl, 'POST', '/auth/logout', undefined, superToken).catch(() => {});

  const token = await signIn(serverUrl, options.admin.email, options.admin.password);
  const as = <T>(method: string, path: string, body?: unknown) =>
    call<T>(serverUrl, method, path, body, token);

  await as('POST', '/admin/setting', {
    whatsAppApiKey: options.secrets.whatsAppToken,
    whatsAppPhoneId: options.number.id,
    whatsAppBusinessAccountId: options.number.businessAccountId,
    whatsAppAppSecret: options.secrets.appSecret,
    facebookMessagesApiUrl: options.graphApiUrl,
    hub_verify_token: options.secrets.hubVerifyToken,
    openaiApiKey: options.secrets.openAiKey,
    openaiModel: options.secrets.openAiModel,
    openaiChatEndpoint: options.openAiChatEndpoint,
  });

  // The approved templates of the business account, read from the (fake) Graph API into the database.
  await as('GET', '/templates/sync');

  const segmentIds = new Map<string, number>();
  for (const segment of SEGMENTS) {
    const answer = await as<{ segment: { id: number } }>('POST', '/admin/segment', segment);
    segmentIds.set(segment.name, answer.segment.id);
  }
  const idsOf = (names: string[]) => names.map((name) => segmentIds.get(name) as number);

  // New bots start active: the first one answers the customers at once.
  const { bot } = await as<{ bot: { id: number } }>('POST', '/admin/bot', {
    bot_name: 'Aurora',
    personality: PERSONALITY,
  });
  for (const instruction of INSTRUCTIONS) {
    await as('POST', '/admin/instruction', {
      bot_id: bot.id,
      ask: instruction.ask,
      reply: instruction.reply,
      segments: idsOf(instruction.segments),
    });
  }

  const clients: SeededClient[] = [];
  for (const [n, [name, lastNames, segments]] of PEOPLE.entries()) {
    const phone = demoPhone(n);
    const email = `${name}.${lastNames.split(' ')[0]}`
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
    const { client } = await as<{ client: { id: number } }>('POST', '/admin/client', {
      name,
      last_names: lastNames,
      whatsapp_cellphone: phone,
      email: `${email}@example.com`,
      segments: idsOf(segments),
    });
    clients.push({ id: client.id, name: `${name} ${lastNames}`, phone, segments });
  }

  const now = Date.now() / 1000;
  const history: SeedResult['history'] = [];
  for (const [index, hoursAgo, text] of HISTORY) {
    const client = clients[index];
    const sendsBefore = options.sendsSoFar?.() ?? 0;
    const { status } = await postCustomerMessage(
      { serverUrl, appSecret: options.secrets.appSecret, number: options.number },
      { phone: client.phone, name: client.name, text, timestamp: Math.floor(now - hoursAgo * 3600) },
    );
    if (status !== 200) throw new Error(`The webhook refused a history message (HTTP ${status})`);
    history.push({ phone: client.phone, text, sendsBefore });
  }

  return { adminToken: token, botId: bot.id, clients, history };
}

/** A password the server's policy accepts (long, random, nothing to do with the email). */
export function demoPassword(): string {
  return `Cafe-${randomBytes(9).toString('base64url')}`;
}
