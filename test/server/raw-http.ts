import { connect, type Socket } from 'node:net';

/**
 * A sender that speaks HTTP by hand over a socket: to send what a well-behaved client never
 * would (a body slower than the limit, no headers at all, garbage).
 */
export interface RawSender {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with what was received once it holds a whole status line. */
  statusLine(): Promise<string>;
  /** Resolves once the server closed the connection (or it broke), with what was received. */
  closed(): Promise<string>;
  write(text: string | Buffer): void;
}

export async function rawSender(port: number, host = '127.0.0.1'): Promise<RawSender> {
  const socket = connect(port, host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let text = '';
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => {});
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  return {
    socket,
    received: () => text,
    async statusLine() {
      while (!text.includes('\r\n')) {
        const more = new Promise<void>((resolve) => waiters.push(resolve));
        if ((await Promise.race([more.then(() => 'more'), ended.then(() => 'closed')])) === 'closed') break;
      }
      return text.split('\r\n')[0] ?? '';
    },
    closed: () => ended,
    write(data) {
      socket.write(data);
    },
  };
}

/** One whole request by hand; resolves with the status line. */
export async function rawRequest(port: number, text: string): Promise<string> {
  const sender = await rawSender(port);
  sender.write(text);
  const line = await sender.statusLine();
  sender.socket.destroy();
  return line;
}
