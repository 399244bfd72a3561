import { VersionView } from '../../../features/version/components/version-view';

export function Component() {
  return <VersionView />;
}
