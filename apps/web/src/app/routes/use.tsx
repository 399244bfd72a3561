import { Card, Steps, Typography } from 'antd';
import { useSettingsStore } from '../../stores/settings-store';

const steps = [
  {
    title: '注册或登录',
    content: '在登录页选择“注册邮箱”，挑一个开放注册的域名；已有邮箱用“邮箱登录”，系统账号用“系统账号登录”。',
  },
  {
    title: '临时邮箱与正式邮箱',
    content:
      '注册时不设密码得到的是临时邮箱，只能在本浏览器通过登录凭证进入，到期自动删除；设了密码的邮箱可以随时用地址和密码登录。',
  },
  {
    title: '收取邮件',
    content: '登录后进入“收件箱”，发到你邮箱地址的邮件会出现在那里。',
  },
  {
    title: '管理账号',
    content: '管理员在“系统账号”中创建账号、设置角色和可用的域名与邮箱数量，也可以停用或删除账号。',
  },
];

/** How to use the service, in short. */
export function Component() {
  const retentionDays = useSettingsStore((state) => state.settings.retentionDays);
  return (
    <Card title="使用说明">
      <Steps orientation="vertical" current={-1} items={steps} />
      {retentionDays ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
          本站邮件保留 {retentionDays} 天，超过期限的邮件会被自动清理。
        </Typography.Paragraph>
      ) : null}
    </Card>
  );
}
