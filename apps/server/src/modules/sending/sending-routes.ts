import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DeletedCount,
  DraftDetail,
  DraftItem,
  IdBody,
  IdParams,
  IdQuery,
  IdsBody,
  Page,
  PageQuery,
  SaveDraftBody,
  SaveDraftData,
  SendEmailBody,
  SendEmailData,
  SentDetail,
  SentItem,
  UploadedFile,
} from '@youju/contract';
import { ApiError } from '../../lib/api-error.js';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';
import { contentDisposition } from '../../protocols/mime/content-disposition.js';
import { uploadOwner } from './upload-service.js';

/** A rich-text body with pasted images can outgrow the 1 MiB JSON limit of other calls. */
const SEND_BODY_LIMIT = 16 * 1024 * 1024;

/** uploadFile, sendEmail, drafts and the sent folder under /api/user. */
export const sendingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { uploads, sending, drafts, settings } = app.services;
  const sender = requireRole(app, 'admin', 'user', 'mailbox');

  // Registered here, so multipart bodies are accepted by this plugin's routes only.
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 20, fieldSize: 1024 } });

  app.post(
    '/uploadFile',
    { onRequest: sender, schema: { response: { 200: Envelope(UploadedFile) } } },
    async (request) => {
      if (!request.isMultipart())
        throw ApiError.badRequest('请以 multipart/form-data 上传文件（表单字段 file）');
      const maxBytes = (await settings.get()).maxMessageBytes;
      let part: Awaited<ReturnType<typeof request.file>>;
      try {
        part = await request.file({ limits: { fileSize: maxBytes }, throwFileSizeLimit: false });
      } catch {
        throw ApiError.badRequest('上传内容格式有误，请重新选择文件上传');
      }
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw ApiError.badRequest('请选择要上传的文件（表单字段 file）');
      }
      return ok(await uploads.accept(uploadOwner(caller(request)), part, maxBytes));
    },
  );

  app.post(
    '/sendEmail',
    {
      onRequest: sender,
      bodyLimit: SEND_BODY_LIMIT,
      schema: { body: SendEmailBody, response: { 200: Envelope(SendEmailData) } },
    },
    async (request) => ok(await sending.send(caller(request), request.body)),
  );

  app.post(
    '/saveDraft',
    {
      onRequest: sender,
      bodyLimit: SEND_BODY_LIMIT,
      schema: { body: SaveDraftBody, response: { 200: Envelope(SaveDraftData) } },
    },
    async (request) => ok(await drafts.save(caller(request), request.body)),
  );

  app.get(
    '/draftList',
    { onRequest: sender, schema: { querystring: PageQuery, response: { 200: Envelope(Page(DraftItem)) } } },
    async (request) => ok(await drafts.list(caller(request), request.query)),
  );

  app.get(
    '/getDraft',
    { onRequest: sender, schema: { querystring: IdQuery, response: { 200: Envelope(DraftDetail) } } },
    async (request) => ok(await drafts.get(caller(request), request.query.id)),
  );

  app.post(
    '/deleteDraft',
    { onRequest: sender, schema: { body: IdBody, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await drafts.remove(caller(request), request.body.id);
      return ok();
    },
  );

  app.get(
    '/getSentEmail',
    { onRequest: sender, schema: { querystring: PageQuery, response: { 200: Envelope(Page(SentItem)) } } },
    async (request) => ok(await sending.list(caller(request), request.query)),
  );

  app.get(
    '/getSentDetail',
    { onRequest: sender, schema: { querystring: IdQuery, response: { 200: Envelope(SentDetail) } } },
    async (request) => {
      // A delivery's error is the remote server's answer or the server's own explanation (in
      // Chinese): the latter is read in the caller's language, a remote answer stays as it came.
      const detail = await sending.detail(caller(request), request.query.id);
      const language = requestLanguage(request.headers['accept-language']);
      return ok({
        ...detail,
        deliveries: detail.deliveries.map((delivery) => ({
          ...delivery,
          lastError: delivery.lastError === null ? null : localize(delivery.lastError, language),
          ...(typeof delivery.remoteResponse === 'string'
            ? { remoteResponse: localize(delivery.remoteResponse, language) }
            : {}),
        })),
      });
    },
  );

  app.get('/sentRaw/:id', { onRequest: sender, schema: { params: IdParams } }, async (request, reply) => {
    const raw = await sending.raw(caller(request), request.params.id);
    reply
      .type('message/rfc822')
      .header('content-length', String(raw.size))
      .header('content-disposition', contentDisposition('attachment', `sent-${request.params.id}.eml`))
      .header('content-security-policy', "sandbox; default-src 'none'");
    return reply.send(raw.stream());
  });

  app.post(
    '/delSentEmail',
    { onRequest: sender, schema: { body: IdsBody, response: { 200: Envelope(DeletedCount) } } },
    async (request) => ok({ deleted: await sending.remove(caller(request), request.body.ids) }),
  );
};
