import { CloudServerOutlined, SafetyOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { DEFAULT_SITE_NAME } from '../../config/constants';
import { paths } from '../../config/routes';
import { useSessionStore } from '../../stores/session-store';
import { useSettingsStore } from '../../stores/settings-store';

const highlights = [
  {
    icon: ThunderboltOutlined,
    title: '临时邮箱',
    text: '在开放注册的域名上注册邮箱，不设密码即可得到一个临时邮箱，用来接收验证码等邮件。',
  },
  {
    icon: CloudServerOutlined,
    title: '托管邮箱',
    text: '系统账号可以管理自己的域名和邮箱账号，邮件保存在本站服务器上。',
  },
  {
    icon: SafetyOutlined,
    title: '自托管',
    text: '整套服务运行在站点自己的服务器上，邮件原文完整保存，不经第三方平台。',
  },
];

/** Home: what the service is, and the way in. */
export function Component() {
  const settings = useSettingsStore((state) => state.settings);
  const loggedIn = useSessionStore((state) => state.token !== null);
  const siteName = settings.siteName || DEFAULT_SITE_NAME;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card>
        <Typography.Title>{siteName}</Typography.Title>
        <Typography.Paragraph style={{ fontSize: 16 }}>
          自托管的临时邮箱与托管邮箱服务：注册一个邮箱即可收信，系统账号还可以管理自己的域名和邮箱。
        </Typography.Paragraph>
        {settings.mailDomains && settings.mailDomains.length > 0 ? (
          <Typography.Paragraph type="secondary">
            本站邮箱域名：{settings.mailDomains.join('、')}
          </Typography.Paragraph>
        ) : null}
        <Link to={loggedIn ? paths.user : paths.auth}>
          <Button type="primary" size="large">
            {loggedIn ? '进入邮箱' : '注册 / 登录'}
          </Button>
        </Link>
      </Card>
      <Row gutter={[16, 16]}>
        {highlights.map((item) => (
          <Col key={item.title} xs={24} md={8}>
            <Card style={{ height: '100%' }}>
              <Typography.Title level={4} style={{ marginTop: 0 }}>
                <item.icon /> {item.title}
              </Typography.Title>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                {item.text}
              </Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
    </Space>
  );
}
