import { Spin } from 'antd';

/** Shown while a screen's code or data arrives. */
export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '96px 0' }}>
      <Spin size="large" />
    </div>
  );
}
