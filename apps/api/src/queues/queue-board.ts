import type { INestApplication } from '@nestjs/common';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { createBullBoard } from '@bull-board/api';
import { ExpressAdapter } from '@bull-board/express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { QueueName, QueueService } from '@scopegraph/queue';
import { adminAllowed } from '../auth/api-key.guard';

export const QUEUE_BOARD_PATH = '/queues';

/**
 * Bull Board for every queue at /queues, admin only. It is an Express router rather than a Nest
 * route, so the admin check runs here, in front of it; browsers present the key as the password of
 * HTTP Basic auth (any user name).
 */
export function mountQueueBoard(app: INestApplication): void {
  const config = app.get<AppConfig>(APP_CONFIG);
  const queues = app.get(QueueService);
  const board = new ExpressAdapter();
  board.setBasePath(QUEUE_BOARD_PATH);
  // The installed @bull-board/express (9.10.1) carries its own @bull-board/api 9.10.1 beside the
  // top-level 9.10.2: same runtime shape, separately declared types. The e2e drives the real board.
  const serverAdapter = board as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'];
  createBullBoard({ queues: Object.values(QueueName).map((name) => new BullMQAdapter(queues.queue(name))), serverAdapter });
  app.use(QUEUE_BOARD_PATH, (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (adminAllowed(config, req.headers as Record<string, unknown>)) return next();
    res.writeHead(401, { 'www-authenticate': 'Basic realm="scopegraph queues", charset="UTF-8"', 'content-type': 'text/plain' });
    res.end('The queue board needs the admin key (API_KEY): send it as x-api-key, a Bearer token, or the Basic auth password.\n');
  });
  app.use(QUEUE_BOARD_PATH, board.getRouter());
}
