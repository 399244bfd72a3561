import { type Domain, type SetDnsProviderBody, type TsigAlgorithm, TsigAlgorithms } from '@youju/contract';
import { Alert, Button, Form, Input, Modal, Popconfirm, Select, Space, Spin } from 'antd';
import { showSuccessMessage } from '../../../lib/feedback';
import { useDnsProvider, useSetDnsProvider } from '../api/dns-provider';

interface ProviderFormValues {
  server: string;
  zone: string;
  keyName: string;
  algorithm: TsigAlgorithm;
  secret: string;
}

interface DnsProviderDialogProps {
  domain: Domain;
  onClose: () => void;
}

/**
 * RFC 2136 provider of a domain: name server, zone, TSIG key. The secret is write-only: the form
 * shows it masked and an empty field keeps the stored one.
 */
export function DnsProviderDialog({ domain, onClose }: DnsProviderDialogProps) {
  const [form] = Form.useForm<ProviderFormValues>();
  const providerQuery = useDnsProvider(domain.id);
  const save = useSetDnsProvider((data) => {
    showSuccessMessage(data.provider ? 'DNS 服务商已保存' : 'DNS 服务商已删除');
    onClose();
  });
  const provider = providerQuery.data?.provider ?? null;

  const submit = (values: ProviderFormValues) => {
    const body: SetDnsProviderBody = {
      id: domain.id,
      server: values.server.trim(),
      zone: values.zone.trim(),
      keyName: values.keyName.trim(),
      algorithm: values.algorithm,
      ...(values.secret?.trim() ? { secret: values.secret.trim() } : {}),
    };
    save.mutate(body);
  };

  return (
    <Modal
      open
      title={`DNS 服务商：${domain.displayName}`}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          {provider && (
            <Popconfirm
              title="删除 DNS 服务商设置？"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => save.mutateAsync({ id: domain.id, enabled: false })}
            >
              <Button danger>删除设置</Button>
            </Popconfirm>
          )}
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            保存
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
            server: provider?.server ?? '',
            zone: provider?.zone ?? domain.name,
            keyName: provider?.keyName ?? '',
            algorithm: provider?.algorithm ?? 'hmac-sha256',
            secret: '',
          }}
        >
          <Alert
            style={{ marginBottom: 16 }}
            type="info"
            showIcon
            title="通过 RFC 2136 动态更新（TSIG 签名）写入记录"
            description="适用于 BIND、PowerDNS、Knot 等支持动态更新的 DNS 服务器。可用 tsig-keygen 生成密钥，并在区域配置中允许该密钥更新。"
          />
          <Form.Item
            name="server"
            label="DNS 服务器"
            rules={[{ required: true, whitespace: true, message: '请填写 DNS 服务器的 IP 或 IP:端口' }]}
            extra="主服务器的 IP，端口默认 53，例如 203.0.113.53 或 203.0.113.53:5353"
          >
            <Input placeholder="203.0.113.53" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="zone"
            label="区域（zone）"
            extra="通常就是域名本身；域名在上级区域中时填写上级域名"
          >
            <Input placeholder={domain.name} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="keyName"
            label="TSIG 密钥名"
            rules={[{ required: true, whitespace: true, message: '请填写 TSIG 密钥名' }]}
          >
            <Input placeholder="youju-update" autoComplete="off" />
          </Form.Item>
          <Form.Item name="algorithm" label="TSIG 算法">
            <Select options={TsigAlgorithms.map((value) => ({ value, label: value }))} />
          </Form.Item>
          <Form.Item
            name="secret"
            label="TSIG 密钥（base64）"
            rules={provider ? [] : [{ required: true, whitespace: true, message: '请填写 TSIG 密钥' }]}
            extra={
              provider
                ? `已保存的密钥：${provider.secretMasked}（留空则不修改）`
                : '密钥只会保存在服务器上，不会再次显示'
            }
          >
            <Input.Password
              placeholder={provider ? '留空则不修改' : 'base64 编码的密钥'}
              autoComplete="new-password"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
