import { downloadFile } from '../../../lib/http';

/** GET /api/user/getMobileConfig: the Apple configuration profile of one address, saved as a file. */
export async function downloadMobileConfig(address: string): Promise<void> {
  await downloadFile('/user/getMobileConfig', { address }, { filename: `${address}.mobileconfig` });
}
