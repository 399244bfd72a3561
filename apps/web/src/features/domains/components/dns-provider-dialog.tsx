import {
  type DnsProviderKind,
  type Domain,
  type SetDnsProviderBody,
  type TsigAlgorithm,
  TsigAlgorithms,
} from '@youju/contract';
import { Alert, Button, Form, Input, Modal, Popconfirm, Select, Space, Spin } from 'antd';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useDnsProvider, useSetDnsProvider } from '../api/dns-provider';

interface ProviderFormValues {
  kind: DnsProviderKind;
  server: string;
  zone: string;
  keyName: string;
  algorithm: TsigAlgorithm;
  accessKeyId: string;
  secret: string;
}

interface DnsProviderDialogProps {
  domain: Domain;
  onClose: () => void;
}

const kindOptions = (): Array<{ value: DnsProviderKind; label: string }> => [
  { value: 'rfc2136', label: t('RFC 2136 动态更新（BIND 等）') },
  { value: 'alidns', label: t('阿里云 DNS') },
  { value: 'dnspod', label: t('DNSPod（腾讯云）') },
  { value: 'cloudflare', label: 'Cloudflare' },
];

/** What each kind asks for: the key ID's and the secret's labels, and where to get them. */
const apiFields = (): Record<
  Exclude<DnsProviderKind, 'rfc2136'>,
  { intro: string; idLabel?: string; idPlaceholder?: string; secretLabel: string }
> => ({
  alidns: {
    intro: t(
      '在阿里云控制台“AccessKey 管理”中创建 AccessKey（建议用只授予 AliyunDNSFullAccess 权限的 RAM 用户），域名须已添加到云解析 DNS。',
    ),
    idLabel: 'AccessKey ID',
    idPlaceholder: 'LTAI…',
    secretLabel: 'AccessKey Secret',
  },
  dnspod: {
    intro: t(
      '在腾讯云控制台“访问管理 > API 密钥管理”中创建密钥（建议用只授予 QcloudDNSPodFullAccess 权限的子用户），域名须已添加到 DNSPod。',
    ),
    idLabel: 'SecretId',
    idPlaceholder: 'AKID…',
    secretLabel: 'SecretKey',
  },
  cloudflare: {
    intro: t(
      '在 Cloudflare 控制台“My Profile > API Tokens”中创建令牌，授予该区域的 Zone:Read 和 DNS:Edit 权限。',
    ),
    secretLabel: t('API 令牌（API Token）'),
  },
});

/**
 * The DNS provider of a domain: RFC 2136 (name server, zone, TSIG key) or the API of Alibaba Cloud
 * DNS, DNSPod or Cloudflare. The secret is write-only: the form shows it masked and an empty field
 * keeps the stored one (as long as the provider stays the same).
 */
export function DnsProviderDialog({ domain, onClose }: DnsProviderDialogProps) {
  const [form] = Form.useForm<ProviderFormValues>();
  const providerQuery = useDnsProvider(domain.id);
  const save = useSetDnsProvider((data) => {
    showSuccessMessage(data.provider ? t('DNS 服务商已保存') : t('DNS 服务商已删除'));
    onClose();
  });
  const provider = providerQuery.data?.provider ?? null;
  const kind = Form.useWatch('kind', form) ?? provider?.kind ?? 'rfc2136';
  // The stored secret is kept only for the same kind: another provider never gets it.
  const hasStoredSecret = provider !== null && provider.kind === kind;

  const submit = (values: ProviderFormValues) => {
    const secret = values.secret?.trim() ? { secret: values.secret.trim() } : {};
    const body: SetDnsProviderBody =
      values.kind === 'rfc2136'
        ? {
            id: domain.id,
            kind: 'rfc2136',
            server: values.server.trim(),
            zone: values.zone.trim(),
            keyName: values.keyName.trim(),
            algorithm: values.algorithm,
            ...secret,
          }
        : {
            id: domain.id,
            kind: values.kind,
            zone: values.zone.trim(),
            ...(values.kind === 'cloudflare' ? {} : { accessKeyId: values.accessKeyId.trim() }),
            ...secret,
          };
    save.mutate(body);
  };

  const api = kind === 'rfc2136' ? null : apiFields()[kind];

  return (
    <Modal
      open
      title={t('DNS 服务商：{displayName}', { displayName: domain.displayName })}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space wrap>
          {provider && (
            <Popconfirm
              title={t('删除 DNS 服务商设置？')}
              okText={t('删除')}
              cancelText={t('取消')}
              okButtonProps={{ danger: true }}
              onConfirm={() => save.mutateAsync({ id: domain.id, enabled: false })}
            >
              <Button danger>{t('删除设置')}</Button>
            </Popconfirm>
          )}
          <Button onClick={onClose}>{t('取消')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            {t('保存')}
          </Button>
        </Space>
      }
    >
      {providerQuery.isLoading ? (
        <Spin />
      ) : (
        <Form<ProviderFormValues>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            kind: provider?.kind ?? 'rfc2136',
            server: provider?.server ?? '',
            zone: provider?.zone ?? domain.name,
            keyName: provider?.keyName ?? '',
            algorithm: provider?.algorithm ?? 'hmac-sha256',
            accessKeyId: provider?.accessKeyId ?? '',
            secret: '',
          }}
        >
          <Form.Item name="kind" label={t('服务商')}>
            <Select options={kindOptions()} />
          </Form.Item>
          {api ? (
            <Alert
              style={{ marginBottom: 16 }}
              type="info"
              showIcon
              title={t('通过 {label} 的 API 写入记录', {
                label: kindOptions().find((option) => option.value === kind)?.label ?? '',
              })}
              description={api.intro}
            />
          ) : (
            <Alert
              style={{ marginBottom: 16 }}
              type="info"
              showIcon
              title={t('通过 RFC 2136 动态更新（TSIG 签名）写入记录')}
              description={t(
                '适用于 BIND、PowerDNS、Knot 等支持动态更新的 DNS 服务器。可用 tsig-keygen 生成密钥，并在区域配置中允许该密钥更新。',
              )}
            />
          )}
          {!api && (
            <Form.Item
              name="server"
              label={t('DNS 服务器')}
              rules={[{ required: true, whitespace: true, message: t('请填写 DNS 服务器的 IP 或 IP:端口') }]}
              extra={t('主服务器的 IP，端口默认 53，例如 203.0.113.53 或 203.0.113.53:5353')}
            >
              <Input placeholder="203.0.113.53" autoComplete="off" />
            </Form.Item>
          )}
          <Form.Item
            name="zone"
            label={t('区域（zone）')}
            extra={
              api
                ? t('在服务商处添加的域名，通常就是域名本身；域名是子域名时填写上级域名')
                : t('通常就是域名本身；域名在上级区域中时填写上级域名')
            }
          >
            <Input placeholder={domain.name} autoComplete="off" />
          </Form.Item>
          {!api && (
            <>
              <Form.Item
                name="keyName"
                label={t('TSIG 密钥名')}
                rules={[{ required: true, whitespace: true, message: t('请填写 TSIG 密钥名') }]}
              >
                <Input placeholder="youju-update" autoComplete="off" />
              </Form.Item>
              <Form.Item name="algorithm" label={t('TSIG 算法')}>
                <Select options={TsigAlgorithms.map((value) => ({ value, label: value }))} />
              </Form.Item>
            </>
          )}
          {api?.idLabel && (
            <Form.Item
              name="accessKeyId"
              label={api.idLabel}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('请填写 {label}', { label: api.idLabel ?? '' }),
                },
              ]}
            >
              <Input placeholder={api.idPlaceholder} autoComplete="off" />
            </Form.Item>
          )}
          <Form.Item
            name="secret"
            label={api ? api.secretLabel : t('TSIG 密钥（base64）')}
            rules={
              hasStoredSecret
                ? []
                : [
                    {
                      required: true,
                      whitespace: true,
                      message: api ? t('请填写{label}', { label: api.secretLabel }) : t('请填写 TSIG 密钥'),
                    },
                  ]
            }
            extra={
              hasStoredSecret
                ? t('已保存的密钥：{secret}（留空则不修改）', { secret: provider?.secretMasked ?? '' })
                : t('密钥只会保存在服务器上，不会再次显示')
            }
          >
            <Input.Password
              placeholder={
                hasStoredSecret ? t('留空则不修改') : api ? api.secretLabel : t('base64 编码的密钥')
              }
              autoComplete="new-password"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
