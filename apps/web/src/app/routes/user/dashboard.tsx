import { Space } from 'antd';
import { userScreens } from '../../../config/routes';
import { DashboardView } from '../../../features/dashboard/components/dashboard-view';
import { GuideCard } from '../../../features/dashboard/components/guide-card';

const pathOf = (screen: string) => userScreens.find((entry) => entry.screen === screen)?.path ?? '/user';

/** /user/dashboard: the first-run checklist (until done or dismissed) above the figures. */
export function Component() {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <GuideCard links={{ domains: pathOf('domain'), inbox: pathOf('inbox') }} />
      <DashboardView />
    </Space>
  );
}
