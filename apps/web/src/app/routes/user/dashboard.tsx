import { DashboardView } from '../../../features/dashboard/components/dashboard-view';

export function Component() {
  return <DashboardView />;
}
