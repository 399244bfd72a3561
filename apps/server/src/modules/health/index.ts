/** The public face of the health module: other code imports only from here. */
export { healthRoutes } from './health-routes.js';
export {
  createHealthService,
  type HealthService,
  READINESS,
  type Readiness,
  type SmtpListenerState,
} from './health-service.js';
