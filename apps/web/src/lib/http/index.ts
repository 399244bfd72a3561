/**
 * The one HTTP layer of the web client. Every call goes through here: JSON calls, uploads with
 * progress, file downloads and server-sent event streams. This folder alone knows the base URL
 * (/api), attaches the stored login token, applies the 60-second timeout and follows the
 * login-expired rule (an answer `{ error: 302, url }` forgets the token and goes to that url).
 */
export { ApiError, messageFor } from './api-error';
export { type ApiRequest, apiDelete, apiGet, apiPost, requestEnvelope } from './client';
export { type DownloadOptions, downloadBlob, downloadFile } from './download';
export { type EventStreamOptions, openEventStream } from './event-stream';
export { type UploadOptions, upload } from './upload';
