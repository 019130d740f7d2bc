import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningFake {
  url: string;
  close(): Promise<void>;
}

/** Starts an HTTP server on loopback (a free port unless one is given). */
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
