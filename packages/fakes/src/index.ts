import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fakes of the outside services (WhatsApp Cloud API, OpenAI-compatible chat completions) are real HTTP
 * servers on loopback, so the server talks to them exactly as to the real ones. The service fakes land
 * with the messaging engine; this is the shared way they listen.
 */
export interface RunningFake {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: http.RequestListener, port = 0): Promise<RunningFake> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
export * from './openai';
