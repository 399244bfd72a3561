import { Button, Result } from 'antd';
import { useRouteError } from 'react-router-dom';

/** Shown when a screen fails to load or throws, e.g. after a new version replaced its code file. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <Result
      status="error"
      title="页面加载失败"
      subTitle="可能是网络不稳定或站点刚刚更新，请刷新页面重试。"
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>
      }
    />
  );
}
