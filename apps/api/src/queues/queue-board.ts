import type { INestApplication } from '@nestjs/common';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { createBullBoard } from '@bull-board/api';
import { ExpressAdapter } from '@bull-board/express';
import type { ServerResponse } from 'node:http';
import { QueueName, QueueService } from '@scopegraph/queue';
import { FORBIDDEN_ADMIN, GatedRequest, writeRefusal } from '../auth/access';

export const QUEUE_BOARD_PATH = '/queues';

/**
 * Bull Board for every queue at /queues, admin only. It is an Express router rather than a Nest
 * route, so the admin check runs here, in front of it; browsers present the key as the password of
 * HTTP Basic auth (any user name). Must be mounted after accessGate.
 */
export function mountQueueBoard(app: INestApplication): void {
  const queues = app.get(QueueService);
  const board = new ExpressAdapter();
  board.setBasePath(QUEUE_BOARD_PATH);
  // The installed @bull-board/express (9.10.1) carries its own @bull-board/api 9.10.1 beside the
  // top-level 9.10.2: same runtime shape, separately declared types. The e2e drives the real board.
  const serverAdapter = board as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'];
  createBullBoard({ queues: Object.values(QueueName).map((name) => new BullMQAdapter(queues.queue(name))), serverAdapter });
  // accessGate (main.ts) has already decided the caller's role; the board is for admins only.
  app.use(QUEUE_BOARD_PATH, (req: GatedRequest, res: ServerResponse, next: () => void) => {
    if (req.role === 'admin') return next();
    writeRefusal(req, res, FORBIDDEN_ADMIN);
  });
  app.use(QUEUE_BOARD_PATH, board.getRouter());
}
