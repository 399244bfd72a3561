import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Engine } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Metrics } from '../../lib/metrics.js';
import type { DkimService } from '../dkim/index.js';
import type { FolderService, InboundService } from '../mail/index.js';
import type { PersonalSettingsService, SettingsService } from '../settings/index.js';
import { createDeliveryWorker, type DeliveryWorker } from './delivery-worker.js';
import { createDraftService } from './draft-service.js';
import { createSendingService } from './sending-service.js';
import { createUploadService } from './upload-service.js';

interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Sending mail, wired once per app: uploads, drafts, the sent folder with sendEmail, and the
 * outbound queue's delivery worker.
 */
export function createSendingModule(deps: {
  db: Kysely<Database>;
  engine: Engine;
  config: Config;
  settings: SettingsService;
  dkim: DkimService;
  inbound: InboundService;
  /** the mail module's folders: drafts live in each mailbox's Drafts folder */
  folders: FolderService;
  personal: PersonalSettingsService;
  log: Logger;
  metrics: Pick<Metrics, 'deliveryAttempt'>;
}) {
  const { db, engine, config, settings, dkim, inbound, folders, personal, log, metrics } = deps;
  const uploads = createUploadService({ db, dataDir: config.dataDir });
  const drafts = createDraftService({ db, settings, uploads, folders });
  let worker: DeliveryWorker | null = null;
  const sending = createSendingService({
    db,
    engine,
    dataDir: config.dataDir,
    settings,
    dkim,
    drafts,
    personal,
    onQueued: () => worker?.kick(),
  });
  worker = createDeliveryWorker({
    db,
    config,
    settings,
    inbound,
    content: sending.content,
    log,
    onAttempt: (result) => metrics.deliveryAttempt(result),
  });
  return { uploads, drafts, sending, deliveryWorker: worker };
}

/**
 * Starts the upload clean-up and the delivery worker (every process runs one; see
 * delivery-worker.ts) and stops both before the database closes.
 */
export async function startSending(app: FastifyInstance): Promise<void> {
  const { uploads, deliveryWorker } = app.services;
  await uploads.start(app.log);
  deliveryWorker.start();
  app.addHook('preClose', async () => {
    uploads.stop();
    await deliveryWorker.stop();
  });
}
