/** The public face of the settings module: other code imports only from here. */

export type { PersonalSettingsService } from './personal-settings.js';
export { createPersonalSettingsService } from './personal-settings.js';
export { createSettingsEditor } from './settings-editor.js';
export { settingsRoutes } from './settings-routes.js';
export type { SettingsService } from './settings-service.js';
export { createSettingsService } from './settings-service.js';
