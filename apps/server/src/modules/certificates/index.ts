/** The public face of the certificates module: other code imports only from here. */
export { createAcmeService } from './acme-service.js';
export { certificateRoutes } from './certificate-routes.js';
export { createCertificateService } from './certificate-service.js';
export { selfSignedCertificate } from './self-signed.js';
