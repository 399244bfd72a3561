/** The public face of the sessions module: other code imports only from here. */
export { managedScope, mayManage } from './ownership.js';
export type { AuthContext, ClientInfo, SessionService, SubjectKind } from './session-service.js';
export { createSessionService } from './session-service.js';
